-- A game id is checked against the game registry (croupier_games::registry) where it enters —
-- the upload form, the API, the CLI — not by a constraint that needs a migration per game
-- (docs/adding-a-game.md).
alter table submission drop constraint if exists submission_game_check;
alter table competition drop constraint if exists competition_game_check;
