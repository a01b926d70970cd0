-- People at the table (docs/competitions.md#playing-yourself): a challenge's seat may be a
-- signed-in person's, who plays in the browser. The worker playing the match writes the
-- person's current turn into `human_turn`; the site shows it and writes the answer back.

alter table match_seat
    add column user_id         uuid references app_user (user_id),
    -- The person's time per move, in seconds (NULL for bots: the competition's or the game's).
    add column human_move_secs integer check (human_move_secs between 5 and 3600);

-- A seat is exactly one of: a submission, a built-in bot, a person.
do
$$
    declare
        c text;
    begin
        for c in select conname
                 from pg_constraint
                 where conrelid = 'match_seat'::regclass
                   and contype = 'c'
                   and pg_get_constraintdef(oid) like '%builtin%'
            loop
                execute format('alter table match_seat drop constraint %I', c);
            end loop;
    end
$$;
alter table match_seat
    add constraint match_seat_one_player check (num_nonnulls(submission_id, builtin, user_id) = 1),
    add constraint match_seat_person_time check ((user_id is null) = (human_move_secs is null));
create index match_seat_user_idx on match_seat (user_id) where user_id is not null;

-- The turn a person at a seat is asked now (one row per seat, replaced at each turn).
create table human_turn
(
    match_id    uuid        not null,
    seat        integer     not null,
    -- 1 for the seat's first turn of the match, then 2, 3, …
    turn        integer     not null check (turn >= 1),
    -- 0-based game of the match.
    game        integer     not null,
    -- What the seat sees (its observation), the engine's legal moves, and what happened
    -- since the seat's previous turn (croupier_referee::HumanTurn).
    observation jsonb       not null,
    legal       jsonb       not null,
    recent      jsonb       not null,
    asked_at    timestamptz not null default now(),
    deadline    timestamptz not null,
    -- The index into `legal` the person chose, written once.
    answer      integer check (answer >= 0),
    answered_at timestamptz,
    primary key (match_id, seat),
    foreign key (match_id, seat) references match_seat (match_id, seat) on delete cascade
);
