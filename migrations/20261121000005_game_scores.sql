-- Each seat's score in every game of a match, game order. A Bridge table plays several boards
-- in one match and its leaderboard compares the two tables of a duplicate set board by board;
-- Guandan and repeated matches keep their per-game scores for the match page. `score` stays
-- the sum (or the game's own total).
alter table seat_result
    add column game_scores bigint[] not null default '{}';

comment on column seat_result.game_scores is 'the seat''s score in each game of the match, in game order';
