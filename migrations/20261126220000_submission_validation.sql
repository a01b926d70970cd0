-- What a submission's validation game plays, and what it found.
--
-- * `rules`, `players`: the table the bot is for, chosen at upload (or the game's defaults
--   then): a rule set of the game and, for a game whose rule set takes a `players` override
--   (Hanabi, No Thanks), the number of players; null where the rule set fixes it. Rows
--   uploaded before keep `rules = ''`, read as the game's default rule set.
-- * `validation_seed`: the seed of the validation game, which also picks the bot's seat;
--   derived from the uploaded bytes and that choice, so the same upload always plays the same
--   game. Rows uploaded before get one from their bytes' hash; rows written by hand (bench
--   seeds) 0.
-- * `validation_warning`: faults the bot made in a validation game it passed (`ready`), as
--   `{"faults": n, "kinds": [{"kind", "count"}], "reasons": [..]}`; null when it made none.
alter table submission
    add column rules              text    not null default '' check (char_length(rules) <= 64),
    add column players            integer check (players between 1 and 16),
    add column validation_seed    bigint,
    add column validation_warning jsonb;

update submission
set validation_seed = ('x' || encode(substr(source_sha256, 1, 8), 'hex'))::bit(64)::bigint
                      & ((1::bigint << 53) - 1);

alter table submission
    alter column validation_seed set default 0,
    alter column validation_seed set not null;
