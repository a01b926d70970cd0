-- Live updates: every change of a match's status (its insertion included) is announced on the
-- `croupier_match` channel, for the web server's listener (services/server/src/live/). The
-- payload is small and public: which match, of which competition, its new status. Delivered at
-- commit, so a listener that reads a finished match sees its results too.
create or replace function notify_match_status()
    returns trigger as
$$
begin
    if tg_op = 'UPDATE' and old.status = new.status then
        return null;
    end if;
    perform pg_notify('croupier_match', json_build_object(
            'match_id', new.match_id,
            'competition_id', new.competition_id,
            'status', new.status)::text);
    return null;
end;
$$ language plpgsql;

create trigger match_status_changed
    after insert or update of status
    on match
    for each row
execute function notify_match_status();
