-- Data growth (docs/operations.md#data-growth).
--
-- Replay retention: when a finished competition's old replays and move logs leave hot storage
-- (`croupier blobs expire`, or the server's periodic pass with --replay-retention-days), the
-- match keeps its results and says when its replay expired. Null: never expired. Adding a
-- nullable column without a default rewrites nothing.
alter table match add column replay_expired_at timestamptz;

-- The matches whose replays retention may still expire, per competition and age: the index
-- holds only those (an expired match leaves it), so a pass reads what it changes and no more.
create index if not exists match_replay_kept_idx on match (competition_id, finished_at, match_id)
    where replay_expired_at is null and status in ('finished', 'failed');

-- A blob is deleted only when nothing references it: these make "is it still referenced?"
-- (and the foreign keys' own check when a blob row goes) an index probe instead of a scan of
-- every result. Built in this migration's transaction (writes to the table wait meanwhile:
-- docs/operations.md#data-growth gives the time at 10M matches); on a big deployment an
-- operator may build them first with `create index concurrently` and the same names.
create index if not exists replay_sha256_idx on replay (sha256);
create index if not exists seat_result_stderr_idx on seat_result (stderr_sha256) where stderr_sha256 is not null;
create index if not exists seat_result_move_log_idx on seat_result (move_log_sha256) where move_log_sha256 is not null;
create index if not exists submission_source_idx on submission (source_sha256);
create index if not exists submission_artifact_idx on submission (artifact_sha256) where artifact_sha256 is not null;

-- The hot queries at 10M matches (docs/operations.md#data-growth, scripts/bench/seed-matches):
-- a competition's newest matches (the match list, the API) and a ladder's matches of the last
-- hour read this index backwards instead of sorting the competition's matches;
create index if not exists match_competition_created_idx on match (competition_id, created_at, ordinal, match_id);
-- a ladder's queued and running matches (its pairing and budget at every tick) are a few rows of
-- this index instead of every match its entrants ever played.
create index if not exists match_pending_idx on match (competition_id) where status in ('queued', 'running');

-- A team's and a submission's matches start from their seats: with the match id in the index,
-- which matches they are (and how many: the list's total) is read from the index alone,
-- without visiting every seat row. It replaces the index on the submission alone.
create index if not exists match_seat_submission_match_idx on match_seat (submission_id, match_id);
drop index if exists match_seat_submission_idx;
