-- Seeding functions for scripts/bench/seed-matches (and the store's hot-query test): matches,
-- seats, results, replays, move logs and jobs shaped as the worker records them, across many
-- competitions and teams, in a scratch database that has Croupier's migrations applied.
--
--   select seed.setup(teams, competitions);       -- users, teams, submissions, competitions, entries
--   select seed.chunk(lo, hi, replay_bytes, log_bytes, total);  -- matches lo..hi-1 (one transaction each)
--   select seed.finish();                          -- progress counters, standings, statistics
--
-- Shape (docs/operations.md#data-growth): competition 0 is a running ladder holding every
-- fifth match (its newest 200 still queued, with queued jobs); the others are finished
-- round-robins (every tenth cancelled, every fourth archived), the rest of the matches spread
-- evenly over them. A competition's game fixes its seats: hanabi 3, guandan 4, splendor 3,
-- nothanks 3, bridge 4 (bridge matches pair into duplicate sets). Each competition draws its
-- players from 100 of the teams. Match i was created i × 3 s after the first (10M matches span
-- about a year), finished 30 s later; one in 500 failed. Every finished match has a replay blob
-- and a move-log blob per seat, each its own content: a real replay's (log's) bytes from
-- `seed.sample` when it has one for the game — as they are (`replay_bytes` / `log_bytes` null)
-- or cut or repeated to that length — else JSON-like filler (64 bytes for null; no log blobs
-- for `log_bytes` 0), as the worker writes them; every match has its match job.
-- Match and job ids are in insertion order (time-ordered, like UUIDv7), so 10M rows load in
-- minutes; a lookup by id costs the same as with random ids.
create schema if not exists seed;

-- Optional real bytes to shape blobs from: one replay and one seat's move log per game.
create table if not exists seed.sample
(
    game text  not null,
    kind text  not null check (kind in ('replay', 'log')),
    data bytea not null,
    primary key (game, kind)
);

create table if not exists seed.team
(
    n             integer primary key,
    team_id       uuid not null,
    user_id       uuid not null
);

create table if not exists seed.submission
(
    team_n        integer not null,
    game          text    not null,
    submission_id uuid    not null,
    primary key (team_n, game)
);

create table if not exists seed.competition
(
    n              integer primary key,
    competition_id uuid    not null,
    game           text    not null,
    seats          integer not null
);

create or replace function seed.game_of(c integer) returns text
    language sql immutable as
$$
select (array ['nothanks', 'hanabi', 'guandan', 'splendor', 'bridge'])[c % 5 + 1]
$$;

create or replace function seed.seats_of(game text) returns integer
    language sql immutable as
$$
select case game when 'hanabi' then 3 when 'guandan' then 4 when 'splendor' then 3
                 when 'nothanks' then 3 else 4 end
$$;

-- An id that sorts with `n` (12 hex digits of n, then random ones).
create or replace function seed.ordered_uuid(n bigint, salt integer) returns uuid
    language sql volatile as
$$
select (lpad(to_hex(n), 12, '0') || lpad(to_hex(salt), 4, '0')
            || substr(md5(random()::text), 1, 16))::uuid
$$;

-- `len` bytes for blob `key`: the game's sample (cut or repeated) or filler, unique by key.
-- Per game and kind, what blob bytes are cut from: the sample (or filler JSON), repeated to at
-- least `len` bytes; `exact` when the sample is used as it is (len null).
create or replace function seed.shapes(len_replay integer, len_log integer)
    returns table (game text, kind text, body bytea, len integer)
    language plpgsql as
$$
declare
    g text;
    k text;
    b bytea;
    n integer;
begin
    foreach g in array array ['nothanks', 'hanabi', 'guandan', 'splendor', 'bridge'] loop
        foreach k in array array ['replay', 'log'] loop
            n := case k when 'replay' then len_replay else len_log end;
            b := (select s.data from seed.sample s where s.game = g and s.kind = k);
            if b is null then
                b := convert_to('{"move":1,"ms":12,"rss_kb":5120,"out":"pass"},', 'UTF8');
                n := coalesce(n, 64);
            end if;
            while n is not null and length(b) < n loop
                b := b || b;
            end loop;
            return query select g, k, b, n;
        end loop;
    end loop;
end
$$;

-- The bytes of blob `key` (unique by it) cut from `body` (see seed.shapes).
create or replace function seed.fit(key text, body bytea, len integer) returns bytea
    language sql immutable as
$$
select case when len is null then convert_to(key || ' ', 'UTF8') || body
            else substring(convert_to(key || ' ', 'UTF8') || body from 1 for greatest(len, length(key) + 1)) end
$$;

create or replace function seed.setup(teams integer, competitions integer) returns void
    language plpgsql as
$$
declare
    admin uuid;
begin
    insert into blob (sha256, size, data) values (sha256('seed source'), 11, 'seed source')
    on conflict do nothing;
    insert into app_user (username, password_hash, is_admin)
    values ('seed-admin', 'not-a-hash', true)
    returning user_id into admin;
    insert into seed.team (n, team_id, user_id)
    select n, gen_random_uuid(), gen_random_uuid() from generate_series(0, teams - 1) n;
    insert into app_user (user_id, username, password_hash)
    select user_id, 'seed-user-' || n, 'not-a-hash' from seed.team;
    insert into team (team_id, name, invite_code, created_by)
    select team_id, 'Seed team ' || n, 'seed-invite-' || n, user_id from seed.team;
    insert into team_member (team_id, user_id, role)
    select team_id, user_id, 'owner' from seed.team;
    insert into seed.submission (team_n, game, submission_id)
    select t.n, g.game, gen_random_uuid()
    from seed.team t
         cross join unnest(array ['nothanks', 'hanabi', 'guandan', 'splendor', 'bridge']) g(game);
    insert into submission (submission_id, team_id, game, language, version, status, filename,
                            bundle_kind, source_sha256, source_size, unpacked_size, run_command,
                            artifact_sha256, submitted_by)
    select s.submission_id, t.team_id, s.game, 'python3', 1, 'ready', 'bot.py', 'file',
           sha256('seed source'), 11, 11, '{/usr/bin/python3,/bot/bot.py}', sha256('seed source'),
           t.user_id
    from seed.submission s
         join seed.team t on t.n = s.team_n;
    insert into seed.competition (n, competition_id, game, seats)
    select c, gen_random_uuid(), seed.game_of(c), seed.seats_of(seed.game_of(c))
    from generate_series(0, competitions - 1) c;
    insert into competition (competition_id, name, game, rules, kind, status, created_by,
                             archived_at, entries_open, standings_ready, created_at)
    select competition_id, 'Seed competition ' || n, game, 'boardcoder',
           case when n = 0 then 'ladder' else 'round_robin' end,
           case when n = 0 then 'running' when n % 10 = 9 then 'cancelled' else 'finished' end,
           admin,
           case when n % 4 = 1 and n % 10 <> 9 then now() - interval '7 days' end,
           n = 0, false, now() - interval '400 days'
    from seed.competition;
    -- Each competition's field: 100 teams (fewer when there are fewer).
    insert into competition_entry (competition_id, submission_id)
    select c.competition_id, s.submission_id
    from seed.competition c
         cross join generate_series(0, least(100, teams) - 1) k
         join seed.submission s on s.team_n = (c.n * 37 + k) % teams and s.game = c.game;
end
$$;

-- Matches lo … hi - 1 of `total` (the last 200 of the ladder stay queued).
create or replace function seed.chunk(lo bigint, hi bigint, replay_bytes integer, log_bytes integer,
                                      total bigint) returns void
    language plpgsql as
$$
declare
    competitions integer := (select count(*) from seed.competition);
    teams        integer := (select count(*) from seed.team);
    field        integer := least(100, teams);
begin
    -- Triggers (live notifications, progress counters) and foreign-key checks are off while
    -- seeding: the rows are consistent by construction; seed.finish() builds the counters.
    set local session_replication_role = replica;
    create temp table m on commit drop as
    select i,
           seed.ordered_uuid(i, 0)                                          as match_id,
           seed.ordered_uuid(i, 1)                                          as job_id,
           c.competition_id, c.game, c.seats, c.n                           as c,
           i                                                                as ordinal,
           case
               when c.n = 0 and i >= total - 1000 then 'queued'
               when c.n % 10 = 9 and i % 3 = 0 then 'cancelled'
               when i % 500 = 7 then 'failed'
               else 'finished' end                                          as status,
           now() - (total - i) * interval '3 seconds'                       as created_at
    from generate_series(lo, hi - 1) i
         join seed.competition c
              on c.n = case when i % 5 = 0 or competitions = 1 then 0
                            else 1 + (i % (competitions - 1)) end;
    insert into match (match_id, competition_id, game, rules, seed, ordinal, status, failure_reason,
                       started_at, finished_at, created_at, updated_at, duplicate_set)
    select match_id, competition_id, game, 'boardcoder', i * 7919, ordinal::integer, status,
           case status when 'failed' then 'a seat crashed at setup'
                       when 'cancelled' then 'cancelled by an administrator' end,
           case when status in ('finished', 'failed') then created_at + interval '1 second' end,
           case when status <> 'queued' then created_at + interval '30 seconds' end,
           created_at, created_at + interval '30 seconds',
           case when game = 'bridge' then (i / 2)::integer end
    from m;
    -- Seat s: team (c·37 + (i + s·step) mod field) mod teams, step 1 … field/4 - 1: different teams.
    create temp table ms on commit drop as
    select m.match_id, m.i, m.c, m.game, m.status, s.seat, sub.submission_id
    from m
         cross join lateral generate_series(0, m.seats - 1) s(seat)
         join seed.submission sub
              on sub.game = m.game
                  and sub.team_n = (m.c * 37 + (m.i + s.seat * (1 + (m.i / 7) % greatest(field / 4 - 1, 1)))
                                                   % field) % teams;
    insert into match_seat (match_id, seat, submission_id)
    select match_id, seat, submission_id from ms;
    create temp table shape on commit drop as select * from seed.shapes(replay_bytes, log_bytes);
    create temp table logs on commit drop as
    select ms.match_id, ms.seat, seed.fit(ms.match_id::text || '/' || ms.seat, sh.body, sh.len) as data
    from ms
         join shape sh on sh.game = ms.game and sh.kind = 'log'
    where ms.status = 'finished' and (log_bytes is null or log_bytes > 0);
    insert into blob (sha256, size, data, created_at)
    select sha256(data), length(data), data, now() from logs
    on conflict do nothing;
    insert into seat_result (match_id, seat, rank, score, end_state, moves, cpu_ms, max_rss_kb,
                             timings, game_scores, move_log_sha256)
    select ms.match_id, ms.seat, (ms.i + ms.seat) % 3 + 1,
           ((ms.i * 31 + ms.seat * 17) % 50) - 10, 'ok', 40, 120, 20480,
           '[]', array [((ms.i * 31 + ms.seat * 17) % 50) - 10]::bigint[],
           sha256(l.data)
    from ms
         left join logs l using (match_id, seat)
    where ms.status = 'finished';
    create temp table replays on commit drop as
    select m.match_id, seed.fit(m.match_id::text, sh.body, sh.len) as data
    from m
         join shape sh on sh.game = m.game and sh.kind = 'replay'
    where m.status = 'finished';
    insert into blob (sha256, size, data, created_at)
    select sha256(data), length(data), data, now() from replays
    on conflict do nothing;
    insert into replay (match_id, sha256, created_at)
    select r.match_id, sha256(r.data), m.created_at + interval '30 seconds'
    from replays r
         join m using (match_id);
    insert into job (job_id, kind, match_id, status, attempt, worker_id, run_after, created_at,
                     updated_at, finished_at, last_error)
    select job_id, 'match', match_id,
           case status when 'finished' then 'done' when 'failed' then 'failed'
                       when 'cancelled' then 'cancelled' else 'queued' end,
           case when status = 'queued' then 0 else 1 end,
           case when status in ('finished', 'failed') then 'seed-worker-' || (i % 16) end,
           created_at, created_at, created_at + interval '30 seconds',
           case when status <> 'queued' then created_at + interval '30 seconds' end,
           case status when 'failed' then 'a seat crashed at setup' end
    from m;
end
$$;

-- What the triggers and the board would have kept: progress counters and one standing per
-- entry with the record's shape; then fresh statistics.
create or replace function seed.finish() returns void
    language plpgsql as
$$
begin
    delete from competition_progress;
    insert into competition_progress (competition_id, status, matches)
    select competition_id, status, count(*) from match where competition_id is not null
    group by 1, 2;
    insert into standing (competition_id, submission_id, record, outline)
    select e.competition_id, e.submission_id,
           jsonb_build_object('games', 0, 'rating', 1500.0, 'uncertainty', 350.0), '{}'
    from competition_entry e
    on conflict do nothing;
    update competition set standings_ready = true;
end
$$;
