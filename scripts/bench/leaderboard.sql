-- Seeds one finished No Thanks round-robin for scripts/bench/leaderboard: :teams teams with a
-- ready submission each, and :matches finished three-seat matches between them (every seat
-- with a rank and a score), as the worker would have recorded them. Prints the competition id.
-- psql -v teams=200 -v matches=1000000 -f scripts/bench/leaderboard.sql
\set ON_ERROR_STOP on
begin;
insert into blob (sha256, size, data) values (sha256('bench'), 5, 'bench') on conflict do nothing;
insert into app_user (username, password_hash, is_admin) values ('bench-admin', 'not-a-hash', true);
create temp table bench_team on commit drop as
    select n, gen_random_uuid() as team_id, gen_random_uuid() as submission_id
    from generate_series(0, :teams - 1) n;
insert into team (team_id, name, invite_code, created_by)
    select team_id, 'Bench team ' || n, 'bench-invite-' || n,
           (select user_id from app_user where username = 'bench-admin')
    from bench_team;
insert into submission (submission_id, team_id, game, language, version, status, filename, bundle_kind,
                        source_sha256, source_size, unpacked_size, run_command, submitted_by)
    select submission_id, team_id, 'nothanks', 'python3', 1, 'ready', 'bot.py', 'file', sha256('bench'), 5, 5,
           '{/usr/bin/python3,/bot/bot.py}', (select user_id from app_user where username = 'bench-admin')
    from bench_team;
insert into competition (name, game, rules, status, created_by)
    values ('Leaderboard bench', 'nothanks', 'boardcoder', 'finished',
            (select user_id from app_user where username = 'bench-admin'));
create temp table bench_competition on commit drop as
    select competition_id from competition where name = 'Leaderboard bench' order by created_at desc limit 1;
insert into competition_entry (competition_id, submission_id)
    select (select competition_id from bench_competition), submission_id from bench_team;
insert into match (competition_id, game, rules, seed, ordinal, status, started_at, finished_at)
    select (select competition_id from bench_competition), 'nothanks', 'boardcoder', i, i, 'finished', now(), now()
    from generate_series(1, :matches) i;
-- Seat s of match i: team (i + s·k) mod :teams with 1 ≤ k < :teams / 3, three different teams.
insert into match_seat (match_id, seat, submission_id)
    select m.match_id, s, t.submission_id
    from match m
         cross join generate_series(0, 2) s
         join bench_team t on t.n = (m.ordinal + s * (1 + (m.ordinal / 7) % (:teams / 3 - 1))) % :teams
    where m.competition_id = (select competition_id from bench_competition);
insert into seat_result (match_id, seat, rank, score, end_state, moves, cpu_ms, game_scores)
    select ms.match_id, ms.seat, (m.ordinal + ms.seat) % 3 + 1,
           ((m.ordinal * 31 + ms.seat * 17) % 50) - 10, 'ok', 20, 5,
           array[((m.ordinal * 31 + ms.seat * 17) % 50) - 10]::bigint[]
    from match_seat ms join match m using (match_id)
    where m.competition_id = (select competition_id from bench_competition);
select competition_id from bench_competition \gset
commit;
analyze;
\echo competition :competition_id
