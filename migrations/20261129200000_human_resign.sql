-- A person may resign their seat: from then on every turn the worker asks the seat is answered
-- at once with the first legal move (the referee's forced move), so the match plays on to its
-- end without waiting for the person's clock.
alter table human_turn
    add column resigned boolean not null default false;
