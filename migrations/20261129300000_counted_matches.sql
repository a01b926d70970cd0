-- How many finished matches a competition's leaderboard counts (those with an uploaded bot in
-- every seat: a built-in bot or a person leaves a match off the board), kept with the board as
-- results land so that showing it costs no count over the matches.
alter table competition
    add column counted_matches integer not null default 0;

update competition c
set counted_matches = (
    select count(*)
    from match m
    where m.competition_id = c.competition_id
      and m.status = 'finished'
      and not exists (
          select 1 from match_seat ms where ms.match_id = m.match_id and ms.submission_id is null
      )
);
