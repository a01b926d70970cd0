-- A program seat's moves one by one (time, memory peak, stderr of each move), as a JSON blob:
-- shown only to the seat's team and admins, beside the replay (docs/replays.md#move-by-move).
alter table seat_result add column move_log_sha256 bytea references blob (sha256);
