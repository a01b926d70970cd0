-- How far a running match has got (the game being played, from 0, and the entries recorded in
-- it), published by the worker every few seconds while it plays, for the match's page.
create table match_progress
(
    match_id   uuid        primary key references match (match_id) on delete cascade,
    game       integer     not null check (game >= 0),
    moves      integer     not null check (moves >= 0),
    updated_at timestamptz not null default now()
);
