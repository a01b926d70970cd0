-- People, teams, and how they sign in.

create table app_user
(
    user_id       uuid primary key     default gen_random_uuid(),
    username      text        not null
        check (username ~ '^[A-Za-z0-9_.-]{3,32}$'),
    email         text,
    password_hash text        not null,
    is_admin      boolean     not null default false,
    created_at    timestamptz not null default now(),
    updated_at    timestamptz not null default now()
);
select trigger_updated_at('app_user');
-- Names are unique whatever their case.
create unique index app_user_username_key on app_user (lower(username));

create table team
(
    team_id     uuid primary key     default gen_random_uuid(),
    name        text        not null
        check (char_length(name) between 2 and 48),
    invite_code text        not null unique,
    created_by  uuid        not null references app_user (user_id),
    created_at  timestamptz not null default now(),
    updated_at  timestamptz not null default now()
);
select trigger_updated_at('team');
create unique index team_name_key on team (lower(name));

create table team_member
(
    team_id   uuid        not null references team (team_id) on delete cascade,
    user_id   uuid        not null references app_user (user_id) on delete cascade,
    role      text        not null default 'member' check (role in ('owner', 'member')),
    joined_at timestamptz not null default now(),
    primary key (team_id, user_id)
);
create index team_member_user_idx on team_member (user_id);

-- Browser sessions (tower-sessions store). `data` is the serialized session record.
create table session
(
    session_id  text primary key,
    data        bytea       not null,
    expiry_date timestamptz not null
);
create index session_expiry_idx on session (expiry_date);

-- Bearer tokens for the JSON API and the CLI. A token acts for its user; one made on a team's
-- page also names that team (the CLI's default team). Only a SHA-256 of the token is kept.
create table api_token
(
    api_token_id uuid primary key     default gen_random_uuid(),
    user_id      uuid        not null references app_user (user_id) on delete cascade,
    team_id      uuid references team (team_id) on delete cascade,
    name         text        not null check (char_length(name) between 1 and 64),
    token_hash   bytea       not null unique,
    created_at   timestamptz not null default now(),
    last_used_at timestamptz,
    revoked_at   timestamptz
);
create index api_token_user_idx on api_token (user_id);

-- Every login attempt, for rate limiting (works across several server processes).
create table login_attempt
(
    login_attempt_id bigint generated always as identity primary key,
    username         text        not null,
    client_ip        text        not null,
    succeeded        boolean     not null,
    created_at       timestamptz not null default now()
);
create index login_attempt_username_idx on login_attempt (lower(username), created_at);
create index login_attempt_ip_idx on login_attempt (client_ip, created_at);
