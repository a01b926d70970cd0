-- Password reset links an admin makes for a person who forgot their password (no e-mail is
-- needed: the admin passes the link on). Only a SHA-256 of the link's secret is kept; a link
-- works once, until it expires, and a newer link for the same person replaces older ones.
create table password_reset
(
    password_reset_id uuid primary key     default gen_random_uuid(),
    user_id           uuid        not null references app_user (user_id) on delete cascade,
    token_hash        bytea       not null unique,
    created_by        uuid        references app_user (user_id) on delete set null,
    created_at        timestamptz not null default now(),
    expires_at        timestamptz not null,
    used_at           timestamptz
);
create index password_reset_user_idx on password_reset (user_id);
