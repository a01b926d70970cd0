-- Leaderboards kept as results land (docs/architecture.md#leaderboards): one row per
-- competition entry with its standings tally and rating (the JSON of croupier_league::Record)
-- and a bounded outline of its history for sparklines (croupier_league::Outline), updated in the
-- transaction that records a result; the full history one point per rated match.
-- The old per-competition `rating` table was never written: the board replaces it.
drop table rating;

create table standing
(
    competition_id uuid        not null references competition (competition_id) on delete cascade,
    submission_id  uuid        not null references submission (submission_id),
    record         jsonb       not null,
    outline        jsonb       not null default '{}',
    updated_at     timestamptz not null default now(),
    primary key (competition_id, submission_id)
);

create table standing_point
(
    competition_id uuid   not null,
    submission_id  uuid   not null,
    seq            bigint not null generated always as identity,
    point          jsonb  not null,
    primary key (competition_id, submission_id, seq),
    foreign key (competition_id, submission_id) references standing (competition_id, submission_id)
        on delete cascade
);

-- False until the board has been built from the competition's results (competitions older
-- than this migration are built on first use); from then on each result updates it.
alter table competition
    add column standings_ready boolean not null default false;

-- The league's duplicate set (a triple's rotations, a pair's tables, a self-play round): a
-- Bridge table scores when the other table of its set has finished.
alter table match
    add column duplicate_set integer;

update match m
set duplicate_set = g.set
from (select match_id,
             (dense_rank() over (partition by competition_id order by seed, entrants) - 1)::integer as set
      from (select m.match_id, m.competition_id, m.seed,
                   array_agg(ms.submission_id order by ms.submission_id) as entrants
            from match m
                 join match_seat ms using (match_id)
            where m.competition_id is not null
            group by m.match_id, m.competition_id, m.seed) x) g
where g.match_id = m.match_id;

create index match_duplicate_set_idx on match (competition_id, duplicate_set) where duplicate_set is not null;

-- Each competition's matches per status, kept by statement-level triggers on `match` (one
-- upsert per statement, however many rows it touched), so a competition's progress is a read
-- of at most five rows instead of a count over its matches.
create table competition_progress
(
    competition_id uuid    not null references competition (competition_id) on delete cascade,
    status         text    not null,
    matches        bigint  not null default 0,
    primary key (competition_id, status)
);

insert into competition_progress (competition_id, status, matches)
select competition_id, status, count(*)
from match
where competition_id is not null
group by competition_id, status;

create or replace function match_progress_apply(deltas jsonb) returns void as
$$
insert into competition_progress as p (competition_id, status, matches)
select (d ->> 'competition_id')::uuid, d ->> 'status', (d ->> 'n')::bigint
from jsonb_array_elements(deltas) d
order by 1, 2
on conflict (competition_id, status) do update set matches = p.matches + excluded.matches;
$$ language sql;

create or replace function match_progress_inserted() returns trigger as
$$
begin
    perform match_progress_apply(coalesce(jsonb_agg(x), '[]'))
    from (select competition_id, status, count(*) as n
          from new_rows where competition_id is not null
          group by 1, 2) x;
    return null;
end;
$$ language plpgsql;

create or replace function match_progress_updated() returns trigger as
$$
begin
    perform match_progress_apply(coalesce(jsonb_agg(x), '[]'))
    from (select competition_id, status, sum(n) as n
          from (select competition_id, status, count(*) as n from new_rows
                where competition_id is not null group by 1, 2
                union all
                select competition_id, status, -count(*) from old_rows
                where competition_id is not null group by 1, 2) d
          group by 1, 2
          having sum(n) <> 0) x;
    return null;
end;
$$ language plpgsql;

create or replace function match_progress_deleted() returns trigger as
$$
begin
    perform match_progress_apply(coalesce(jsonb_agg(x), '[]'))
    from (select competition_id, status, -count(*) as n
          from old_rows where competition_id is not null
          and exists (select 1 from competition c where c.competition_id = old_rows.competition_id)
          group by 1, 2) x;
    return null;
end;
$$ language plpgsql;

create trigger match_progress_insert
    after insert on match referencing new table as new_rows
    for each statement execute function match_progress_inserted();
create trigger match_progress_update
    after update on match referencing old table as old_rows new table as new_rows
    for each statement execute function match_progress_updated();
create trigger match_progress_delete
    after delete on match referencing old table as old_rows
    for each statement execute function match_progress_deleted();
