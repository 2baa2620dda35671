-- A rating, bookmark or alert changes one reader's state of one story: the notice names both
-- ('viewer:user:story'), so instances drop that pair and keep the reader's other stories warm
-- (a reader rating as they read would otherwise empty their whole state at every write). Other
-- notices are as migration 0013 made them; audio positions still send 'viewer:user'.
CREATE OR REPLACE FUNCTION kathamala_notify_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('kathamala_cache', 'session:' || r.id);
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('kathamala_cache', 'user:' || r.id);
  ELSIF TG_TABLE_NAME = 'stories' THEN
    PERFORM pg_notify('kathamala_cache', 'story:' || r.id);
  ELSIF TG_TABLE_NAME = 'episodes' THEN
    PERFORM pg_notify('kathamala_cache', 'episodes:' || r.story_id);
  ELSE
    -- ratings, bookmarks, story_alerts: one reader's state of one story (both pairs if an
    -- update moved the row to another).
    PERFORM pg_notify('kathamala_cache', 'viewer:' || r.user_id || ':' || r.story_id);
    IF TG_OP = 'UPDATE' AND (OLD.user_id, OLD.story_id) IS DISTINCT FROM (NEW.user_id, NEW.story_id) THEN
      PERFORM pg_notify('kathamala_cache', 'viewer:' || OLD.user_id || ':' || OLD.story_id);
    END IF;
  END IF;
  RETURN NULL;
END $$;
