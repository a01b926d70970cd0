-- Challenges and A/B tests (docs/competitions.md#challenges): unrated matches a team asks for
-- in the setting of a competition. Their matches have no competition (so no board, progress
-- or rating ever counts them) and name their challenge instead.
create table challenge
(
    challenge_id   uuid primary key     default gen_random_uuid(),
    competition_id uuid        not null references competition (competition_id) on delete cascade,
    team_id        uuid        not null references team (team_id) on delete cascade,
    created_by     uuid        not null references app_user (user_id),
    kind           text        not null check (kind in ('challenge', 'ab_test')),
    -- A challenge's seating, one {"submission_id": …} or {"builtin": …} per seat; an A/B
    -- test's two submissions [a, b].
    seats          jsonb       not null,
    -- Duplicate groups asked for (an A/B test: the most it may play).
    games          integer     not null check (games between 1 and 1000),
    base_seed      bigint      not null,
    status         text        not null default 'running' check (status in ('running', 'finished')),
    -- An A/B test's report when it stopped (croupier_league::AbReport).
    report         jsonb,
    created_at     timestamptz not null default now()
);
create index challenge_team_idx on challenge (team_id, created_at);

alter table match
    add column challenge_id uuid references challenge (challenge_id) on delete cascade;
create index match_challenge_idx on match (challenge_id, ordinal) where challenge_id is not null;
