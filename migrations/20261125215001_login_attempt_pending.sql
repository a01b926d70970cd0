-- A login attempt is recorded before its password is checked; `pending` marks one still being
-- checked. It counts against its username's limit (so concurrent guesses cannot race past it)
-- but not against its address's, so a burst of right logins from one address (a class behind
-- one NAT) is not mistaken for failures.
alter table login_attempt add column pending boolean not null default false;
