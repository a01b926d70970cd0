-- What a running match keeps hidden, and who sees a private match (docs/competitions.md#what-is-hidden-and-from-whom).
-- The three rules live here, once, so that a single match, a list of matches and a count all
-- ask the same question.

-- Whether `viewer` (a user id; NULL when signed out) may see a match of challenge `challenge`
-- (NULL: a competition's match, public). A challenge's matches — challenges, A/B tests and
-- tables with a person — are its team's members' and the administrators'.
create function match_visible(challenge uuid, viewer uuid) returns boolean
    language sql
    stable
as
$$
select $1 is null
    or exists (select 1 from app_user u where u.user_id = $2 and u.is_admin)
    or exists (select 1
               from challenge ch
                    join team_member tm on tm.team_id = ch.team_id
               where ch.challenge_id = $1
                 and tm.user_id = $2)
$$;

-- Whether no match dealt from `seed` in `game` is queued or running: then what was dealt (a
-- finished match's replay, its protocol log, its seats' logs) may be shown. Every match of a
-- round, and so every table of a duplicate set, is dealt from one seed.
create function deal_out(game text, seed bigint) returns boolean
    language sql
    stable
as
$$
select not exists (select 1
                   from match m
                   where m.game = $1
                     and m.seed = $2
                     and m.status in ('queued', 'running'))
$$;
create index match_dealing_idx on match (game, seed) where status in ('queued', 'running');

-- Whether nothing more will be played on the seeds drawn from the base seed of competition
-- `competition` or of challenge `challenge` (give one): none of its matches is queued or
-- running, and none will be added (a ladder is finished, an A/B test stopped). Only then may
-- a match's seed or the base seed be shown: a match seed gives the base seed away
-- (SplitMix64 runs backwards), and the base seed every other round's seed.
create function seeds_out(competition uuid, challenge uuid) returns boolean
    language sql
    stable
as
$$
select case
           when $1 is not null then
               exists (select 1
                       from competition c
                       where c.competition_id = $1
                         and (c.kind <> 'ladder' or c.status = 'finished'))
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
