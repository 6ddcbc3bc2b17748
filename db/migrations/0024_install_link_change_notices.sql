-- An instance serves install links' answers from memory while the database is away (docs/outages.md#stale-answers);
-- a revoked link must stop working there too. A change to a link tells every instance, as a
-- change to a key does (0020): the team's id on `skillgate_team_changes`.
CREATE TRIGGER install_links_notify_change
  AFTER UPDATE OR DELETE ON install_links
  FOR EACH ROW EXECUTE FUNCTION skillgate_notify_team_change();
