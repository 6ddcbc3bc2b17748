-- Every instance caches what an API key authenticates as (its team, settings and catalog
-- revisions; lib/auth/key-cache.ts). A change to a team's row or to one of its keys tells every
-- instance on commit, whichever code path made it: the team's id on `skillgate_team_changes`.
-- Several changes of one team in one transaction are one notice (PostgreSQL folds equal ones).
CREATE FUNCTION skillgate_notify_team_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'teams' THEN
    PERFORM pg_notify('skillgate_team_changes', COALESCE(NEW.id, OLD.id)::text);
  ELSE
    PERFORM pg_notify('skillgate_team_changes', COALESCE(NEW.team_id, OLD.team_id)::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER teams_notify_change
  AFTER UPDATE OR DELETE ON teams
  FOR EACH ROW EXECUTE FUNCTION skillgate_notify_team_change();
--> statement-breakpoint
CREATE TRIGGER api_keys_notify_change
  AFTER UPDATE OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION skillgate_notify_team_change();
