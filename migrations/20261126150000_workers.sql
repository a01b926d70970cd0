-- The worker fleet: every `croupier work` process (or `croupier up`'s workers) says it is alive
-- every heartbeat, so organisers see which workers run, when each was last heard of and what it
-- is doing (its running job comes from `job.worker_id`).
create table worker
(
    worker_id    text primary key,
    host         text        not null,
    pid          integer     not null,
    version      text        not null,
    started_at   timestamptz not null,
    heartbeat_at timestamptz not null,
    stopped_at   timestamptz
);
create index worker_heartbeat_idx on worker (heartbeat_at);
