-- An organiser archives a competition that is over: it leaves the public list (its pages and
-- API answers stay, by address), and can be brought back.
alter table competition
    add column archived_at timestamptz;
