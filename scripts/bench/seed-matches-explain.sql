-- The hot queries of the platform, as the store sends them (services/store/src: the file and
-- function are named above each), with the values a custom plan sees in place of $n:
-- :'competition' a big finished round-robin, :'ladder' the running ladder, :'team' a team in
-- it, :'submission' that team's ladder entry, :'match' a finished match of the ladder.
-- scripts/bench/seed-matches runs each under EXPLAIN (ANALYZE, BUFFERS) in a rolled-back
-- transaction; services/store/tests/hot_queries.rs runs each under EXPLAIN with sequential scans
-- discouraged and fails when a plan still reads a big table whole. Keep these in step with the
-- store when a query changes. A query starts at a "-- query:" line and ends with ";".

-- query: job claim (jobs.rs claim)
with next as (
    select job_id from job
    where status = 'queued' and run_after <= now()
    order by priority desc, run_after, created_at
    for update skip locked
    limit 1
)
update job set status = 'running', attempt = job.attempt + 1, worker_id = 'explain',
               lease_until = now() + make_interval(secs => 60), heartbeat_at = now()
from next
where job.job_id = next.job_id
returning job.job_id, job.kind, job.submission_id, job.match_id, job.attempt, job.max_attempts;

-- query: expired leases (jobs.rs reap_expired)
select job_id from job where status = 'running' and lease_until < now() for update skip locked;

-- query: competition match list, count (matches/listing.rs page)
select count(*) from match m where m.competition_id = :'competition';

-- query: competition match list, newest page (matches/listing.rs page)
select m.match_id, m.competition_id, m.game, m.rules, m.seed, m.settings, m.ordinal, m.status,
       m.failure_reason, m.started_at, m.finished_at
from match m
where m.competition_id = :'competition'
order by m.created_at desc, m.ordinal desc, m.match_id desc
limit 50 offset 0;

-- query: competition page, schedule order (competitions/results.rs match_lines)
select match_id, ordinal, status, failure_reason, finished_at
from match where competition_id = :'competition'
order by ordinal, match_id
limit 50 offset 500;

-- query: a team's matches, newest page (matches/listing.rs page)
select m.match_id, m.competition_id, m.game, m.rules, m.seed, m.settings, m.ordinal, m.status,
       m.failure_reason, m.started_at, m.finished_at
from match m
where exists (select 1 from match_seat ms join submission s using (submission_id)
              where ms.match_id = m.match_id and s.team_id = :'team')
order by m.created_at desc, m.ordinal desc, m.match_id desc
limit 50 offset 0;

-- query: a submission's wins, newest page (matches/listing.rs page)
select m.match_id, m.competition_id, m.game, m.rules, m.seed, m.settings, m.ordinal, m.status,
       m.failure_reason, m.started_at, m.finished_at
from match m
where exists (select 1 from match_seat ms left join seat_result r using (match_id, seat)
              where ms.match_id = m.match_id and ms.submission_id = :'submission'
                and r.rank = 1)
order by m.created_at desc, m.ordinal desc, m.match_id desc
limit 50 offset 0;

-- query: seats of a listed page (matches/listing.rs seats_of)
select ms.match_id, ms.seat, ms.submission_id, ms.builtin, u.username, s.team_id, t.name,
       s.version, r.rank, r.score, r.end_state, r.end_detail
from match_seat ms
     left join submission s using (submission_id)
     left join team t using (team_id)
     left join app_user u on u.user_id = ms.user_id
     left join seat_result r using (match_id, seat)
where ms.match_id = any (array(select match_id from match where competition_id = :'competition'
                                order by ordinal limit 50))
order by ms.match_id, ms.seat;

-- query: leaderboard (standings.rs all)
select submission_id, record, outline from standing where competition_id = :'ladder';

-- query: match page, the match (matches.rs get)
select match_id, competition_id, game, rules, seed, settings, ordinal, status, failure_reason,
       started_at, finished_at
from match where match_id = :'match';

-- query: match page, seats and results (matches.rs seats_with_results)
select ms.seat, ms.submission_id, ms.builtin, u.username, s.team_id, t.name, s.version, r.rank,
       r.score, r.end_state, r.end_detail, r.moves, r.cpu_ms, r.max_rss_kb, r.timings,
       r.stderr_sha256, r.move_log_sha256
from match_seat ms
     left join submission s using (submission_id)
     left join team t using (team_id)
     left join app_user u on u.user_id = ms.user_id
     left join seat_result r using (match_id, seat)
where ms.match_id = :'match'
order by ms.seat;

-- query: match page, the replay (matches.rs replay)
select b.sha256, b.data from replay r join blob b on b.sha256 = r.sha256 where r.match_id = :'match';

-- query: ladder pairing, the field (ladders.rs field)
select e.submission_id, st.record,
       (select count(distinct m.match_id)
        from match m join match_seat ms using (match_id)
        where m.competition_id = e.competition_id and ms.submission_id = e.submission_id
          and m.status in ('queued', 'running')) as pending
from competition_entry e
     left join standing st using (competition_id, submission_id)
where e.competition_id = :'ladder' and e.active
order by e.submission_id;

-- query: ladder pairing, the budget (ladders.rs usage)
select (select count(*) from match
        where competition_id = :'ladder' and created_at > now() - interval '1 hour') as last_hour,
       (select count(*) from match
        where competition_id = :'ladder' and status in ('queued', 'running')) as pending,
       coalesce((select max(ordinal) from match where competition_id = :'ladder') + 1, 0) as next_ordinal,
       coalesce((select max(duplicate_set) from match where competition_id = :'ladder') + 1, 0) as next_set;

-- query: result recording, the match (matches.rs record_result)
update match set status = 'finished', finished_at = now() where match_id = :'match' and status = 'running';

-- query: result recording, the competition held (standings.rs lock_for_match)
select c.competition_id, c.game, c.settings, c.standings_ready as ready
from match m join competition c using (competition_id)
where m.match_id = :'match'
for no key update of c;

-- query: result recording, the landed seats (standings.rs landed)
select m.match_id, m.ordinal, m.seed, m.duplicate_set, r.seat, ms.submission_id, r.rank, r.score,
       r.end_state, r.game_scores
from match m
     join seat_result r using (match_id)
     join match_seat ms using (match_id, seat)
where m.match_id = :'match' and m.status = 'finished'
order by r.seat;

-- query: result recording, the job done (jobs.rs complete)
update job set status = 'done', finished_at = now(), lease_until = null
where job_id = :'job' and attempt = 1 and status = 'running';

-- query: replay retention, a competition's expiring matches (retention.rs expire)
select m.match_id
from match m
where m.competition_id = :'competition'
  and m.finished_at < now() - interval '30 days'
  and m.replay_expired_at is null
  and m.status in ('finished', 'failed')
order by m.finished_at
limit 1000;

-- query: replay retention, is a blob still referenced (retention.rs drop_blobs; the same probes as the foreign keys' checks when a blob row is deleted)
select exists (select 1 from replay r where r.sha256 = b.sha256 and r.match_id <> :'match')
    or exists (select 1 from seat_result r where r.stderr_sha256 = b.sha256 and r.match_id <> :'match')
    or exists (select 1 from seat_result r where r.move_log_sha256 = b.sha256 and r.match_id <> :'match')
    or exists (select 1 from submission s where s.source_sha256 = b.sha256)
    or exists (select 1 from submission s where s.artifact_sha256 = b.sha256)
from blob b
where b.sha256 = (select sha256 from replay where match_id = :'match');
