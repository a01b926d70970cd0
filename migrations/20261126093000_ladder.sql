-- Ladders (docs/competitions.md#ladders): competitions that run continuously. A team's newest
-- ready submission for the game is entered while entries are open and replaces its previous
-- one on the board (`active`); the older entry keeps its matches and history.
alter table competition
    drop constraint competition_status_check,
    add constraint competition_status_check
        check (status in ('scheduled', 'running', 'paused', 'finished', 'cancelled')),
    add column entries_open boolean not null default true;

alter table competition_entry
    add column active     boolean     not null default true,
    add column entered_at timestamptz not null default now();

create index competition_entry_active_idx on competition_entry (competition_id) where active;
