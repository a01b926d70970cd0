-- Competitions played round by round (Swiss rounds, budgeted adaptive ranking), and stages.
--
-- A `swiss` or `adaptive` competition is created with its first round; the workers' rounds
-- tick plans each next round once the previous one has ended (`rounds_started` counts the
-- rounds planned so far; `round_progress` is the league's progress toward a decided ranking,
-- as JSON) and sets `status = 'finished'` when the plan is done.
--
-- A stage: a competition whose `stage_of` names the competition it was seeded from (a final
-- round-robin of the first stage's top entrants), made by the same tick when the first
-- stage finishes.

alter table competition drop constraint competition_kind_check;
alter table competition add constraint competition_kind_check
    check (kind in ('round_robin', 'ladder', 'selfplay', 'swiss', 'adaptive'));

alter table competition
    add column rounds_started int   not null default 0 check (rounds_started >= 0),
    add column round_progress jsonb,
    add column stage_of       uuid references competition (competition_id) on delete cascade;

create unique index competition_stage_of_idx on competition (stage_of) where stage_of is not null;

-- The rounds tick looks for competitions between rounds: few rows, by kind and status.
create index competition_rounds_due_idx on competition (created_at)
    where kind in ('swiss', 'adaptive') and status in ('scheduled', 'running');

-- Seeds stay hidden while a round-by-round competition may still plan a round: between two
-- rounds no match is queued or running, yet the next round's seed follows from the base seed.
create or replace function seeds_out(competition uuid, challenge uuid) returns boolean
    language sql
    stable
as
$$
select case
           when $1 is not null then
               exists (select 1
                       from competition c
                       where c.competition_id = $1
                         and (c.kind not in ('ladder', 'swiss', 'adaptive') or c.status = 'finished'))
                   and not exists (select 1
                                   from match m
                                   where m.competition_id = $1
                                     and m.status in ('queued', 'running'))
           when $2 is not null then
               exists (select 1
                       from challenge ch
                       where ch.challenge_id = $2
                         and (ch.kind = 'challenge' or ch.status = 'finished'))
                   and not exists (select 1
                                   from match m
                                   where m.challenge_id = $2
                                     and m.status in ('queued', 'running'))
           else false
           end
$$;
