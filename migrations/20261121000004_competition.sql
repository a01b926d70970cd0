-- Competitions, matches and their results, and the job queue workers pull from.

create table competition
(
    competition_id uuid primary key     default gen_random_uuid(),
    name           text        not null check (char_length(name) between 1 and 80),
    game           text        not null check (game in ('hanabi', 'guandan', 'splendor', 'nothanks', 'bridge')),
    rules          text        not null,
    kind           text        not null default 'round_robin' check (kind in ('round_robin', 'ladder', 'selfplay')),
    -- rounds, per-game setting overrides, seed base …
    settings       jsonb       not null default '{}',
    status         text        not null default 'scheduled'
        check (status in ('scheduled', 'running', 'finished', 'cancelled')),
    created_by     uuid        not null references app_user (user_id),
    created_at     timestamptz not null default now(),
    updated_at     timestamptz not null default now()
);
select trigger_updated_at('competition');

-- The submissions entered in a competition (frozen when it is created).
create table competition_entry
(
    competition_id uuid not null references competition (competition_id) on delete cascade,
    submission_id  uuid not null references submission (submission_id),
    primary key (competition_id, submission_id)
);

create table match
(
    match_id       uuid primary key     default gen_random_uuid(),
    -- null for validation games of a new submission.
    competition_id uuid references competition (competition_id) on delete cascade,
    game           text        not null,
    rules          text        not null,
    seed           bigint      not null,
    settings       jsonb       not null default '{}',
    -- position in the competition schedule (ratings update in this order).
    ordinal        integer     not null default 0,
    status         text        not null default 'queued'
        check (status in ('queued', 'running', 'finished', 'failed', 'cancelled')),
    failure_reason text,
    started_at     timestamptz,
    finished_at    timestamptz,
    created_at     timestamptz not null default now(),
    updated_at     timestamptz not null default now()
);
select trigger_updated_at('match');
create index match_competition_idx on match (competition_id, ordinal);

-- Who sits where: a submission, or an in-process built-in bot.
create table match_seat
(
    match_id      uuid    not null references match (match_id) on delete cascade,
    seat          integer not null check (seat >= 0),
    submission_id uuid references submission (submission_id),
    builtin       text,
    primary key (match_id, seat),
    check ((submission_id is null) <> (builtin is null))
);
create index match_seat_submission_idx on match_seat (submission_id);

create table seat_result
(
    match_id     uuid             not null references match (match_id) on delete cascade,
    seat         integer          not null,
    rank         integer          not null check (rank >= 1),
    score        double precision not null,
    end_state    text             not null check (end_state in ('ok', 'time_limit', 'memory_limit', 'crashed',
                                                               'output_limit', 'invalid_output', 'illegal_action',
                                                               'setup_error')),
    end_detail   text,
    moves        integer          not null default 0,
    cpu_ms       bigint           not null default 0,
    max_rss_kb   bigint           not null default 0,
    -- per-move timings and the stderr tail, shown only to the owning team.
    timings      jsonb            not null default '[]',
    stderr_sha256 bytea references blob (sha256),
    primary key (match_id, seat),
    foreign key (match_id, seat) references match_seat (match_id, seat) on delete cascade
);

create table replay
(
    match_id   uuid primary key references match (match_id) on delete cascade,
    format     integer     not null default 1,
    sha256     bytea       not null references blob (sha256),
    created_at timestamptz not null default now()
);

create table rating
(
    competition_id uuid             not null references competition (competition_id) on delete cascade,
    submission_id  uuid             not null references submission (submission_id),
    rating         double precision not null,
    uncertainty    double precision not null,
    games          integer          not null default 0,
    updated_at     timestamptz      not null default now(),
    primary key (competition_id, submission_id)
);

-- The work queue: compile jobs and match jobs. Workers claim with `for update skip locked`,
-- hold a lease they renew by heartbeat, and fence every later write with `attempt`.
create table job
(
    job_id        uuid primary key     default gen_random_uuid(),
    kind          text        not null check (kind in ('compile', 'match')),
    submission_id uuid references submission (submission_id) on delete cascade,
    match_id      uuid references match (match_id) on delete cascade,
    status        text        not null default 'queued'
        check (status in ('queued', 'running', 'done', 'failed', 'cancelled')),
    priority      integer     not null default 0,
    attempt       integer     not null default 0,
    max_attempts  integer     not null default 3,
    worker_id     text,
    lease_until   timestamptz,
    heartbeat_at  timestamptz,
    last_error    text,
    run_after     timestamptz not null default now(),
    created_at    timestamptz not null default now(),
    updated_at    timestamptz not null default now(),
    finished_at   timestamptz,
    check ((kind = 'compile' and submission_id is not null and match_id is null)
        or (kind = 'match' and match_id is not null and submission_id is null))
);
select trigger_updated_at('job');
create index job_claim_idx on job (priority desc, run_after, created_at) where status = 'queued';
create index job_lease_idx on job (lease_until) where status = 'running';
create unique index job_one_active_per_match on job (match_id) where status in ('queued', 'running');

-- Wake idle workers when a job is queued.
create or replace function notify_job_queued()
    returns trigger as
$$
begin
    perform pg_notify('croupier_job', new.kind);
    return null;
end;
$$ language plpgsql;

create trigger job_queued
    after insert or update of status
    on job
    for each row
    when (new.status = 'queued')
execute function notify_job_queued();
