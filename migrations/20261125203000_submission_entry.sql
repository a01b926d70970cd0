-- The entry point the submitter chose at upload: the file that starts the bot
-- (`bot/client0.py`) and, for a Hanabi class bot, the class that plays with its arguments
-- (`player.py:cautious(0.3)`). Empty: the build plan chooses (bot.py, main.py, …).
alter table submission
    add column entry text not null default '' check (char_length(entry) <= 512);
