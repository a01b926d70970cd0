-- Uploaded bots. Every upload is a new row; nothing is ever overwritten.

-- Content-addressed bytes: uploads, compiled artifacts, replays, logs.
create table blob
(
    sha256     bytea primary key check (octet_length(sha256) = 32),
    size       bigint      not null check (size >= 0),
    data       bytea       not null,
    created_at timestamptz not null default now()
);

create table submission
(
    submission_id  uuid primary key     default gen_random_uuid(),
    team_id        uuid        not null references team (team_id),
    game           text        not null check (game in ('hanabi', 'guandan', 'splendor', 'nothanks', 'bridge')),
    language       text        not null check (language in ('python3', 'c', 'cpp', 'binary')),
    -- 1, 2, 3 … per team and game, in upload order.
    version        integer     not null check (version > 0),
    status         text        not null default 'pending'
        check (status in ('pending', 'compiling', 'validating', 'ready', 'failed')),
    label          text        not null default '' check (char_length(label) <= 80),
    filename       text        not null,
    bundle_kind    text        not null check (bundle_kind in ('file', 'zip', 'tar.gz')),
    source_sha256  bytea       not null references blob (sha256),
    source_size    bigint      not null,
    unpacked_size  bigint      not null,
    -- The compiled bundle (a .tar.gz of the build directory) and how to start it inside the
    -- sandbox, e.g. {/usr/bin/python3,/bot/bot.py} or {/bot/bot}. Set by the compile job.
    artifact_sha256 bytea references blob (sha256),
    run_command    text[],
    compile_log    text        not null default '',
    failure_reason text,
    submitted_by   uuid        not null references app_user (user_id),
    created_at     timestamptz not null default now(),
    updated_at     timestamptz not null default now(),
    unique (team_id, game, version)
);
select trigger_updated_at('submission');
create index submission_team_idx on submission (team_id, created_at desc);
create index submission_game_status_idx on submission (game, status);

-- The files of a submission as validated at upload time.
create table submission_file
(
    submission_id uuid    not null references submission (submission_id) on delete cascade,
    path          text    not null,
    size          bigint  not null,
    executable    boolean not null default false,
    primary key (submission_id, path)
);
