-- A rating, bookmark or alert notice carries the pair's new value, so instances set it in the
-- reader's kept rows instead of dropping them and reading them again at the reader's next episode:
-- 'viewer:user:story:rating:4' ('rating:' once removed), 'viewer:user:story:bookmark:1' or ':0',
-- 'viewer:user:story:alert:1' or ':0'. Other notices are as migration 0024 made them.
CREATE OR REPLACE FUNCTION kathamala_notify_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
  field text;
  value text;
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
    -- ratings, bookmarks, story_alerts: one reader's state of one story (the old pair's too,
    -- as removed, if an update moved the row to another).
    field := CASE TG_TABLE_NAME WHEN 'ratings' THEN 'rating' WHEN 'bookmarks' THEN 'bookmark'
      ELSE 'alert' END;
    IF TG_OP = 'UPDATE' AND (OLD.user_id, OLD.story_id) IS DISTINCT FROM (NEW.user_id, NEW.story_id) THEN
      PERFORM pg_notify('kathamala_cache', 'viewer:' || OLD.user_id || ':' || OLD.story_id || ':'
        || field || ':' || CASE field WHEN 'rating' THEN '' ELSE '0' END);
    END IF;
    -- NEW.rating only where there is one: the function serves three tables.
    IF field <> 'rating' THEN
      value := CASE TG_OP WHEN 'DELETE' THEN '0' ELSE '1' END;
    ELSIF TG_OP = 'DELETE' THEN
      value := '';
    ELSE
      value := NEW.rating::text;
    END IF;
    PERFORM pg_notify('kathamala_cache',
      'viewer:' || r.user_id || ':' || r.story_id || ':' || field || ':' || value);
  END IF;
  RETURN NULL;
END $$;
