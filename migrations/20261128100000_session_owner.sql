-- Whose a browser session is, and what its owner sees of it on the account page: when it
-- began, when it was last used, from which browser and address. `handle` names a session on
-- that page (its id is the cookie's secret and never leaves the server).
alter table session
    add column user_id      uuid references app_user (user_id) on delete cascade,
    add column handle       uuid        not null default gen_random_uuid(),
    add column created_at   timestamptz not null default now(),
    add column last_seen_at timestamptz not null default now(),
    add column user_agent   text,
    add column address      text;
create unique index session_handle_key on session (handle);
create index session_user_idx on session (user_id) where user_id is not null;

-- A person's sessions carry the epoch they began in; changing the password, a reset link or
-- "sign out everywhere" moves the epoch on, and a session of an older epoch is signed out
-- even if a request in flight saves it again.
alter table app_user
    add column session_epoch integer not null default 0;
