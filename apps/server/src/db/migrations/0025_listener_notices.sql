-- A saved listening position changes nothing a story answer shows but the listener's own
-- audioBooks: its notice names the listener ('listener:user'), so instances drop their positions
-- and keep their reading state (subscriptions, ratings, bookmarks) warm while they listen, where
-- 'viewer:user' dropped it at every save. Tracks still send 'story:', as migration 0020 made it.
CREATE OR REPLACE FUNCTION kathamala_notify_audio() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF TG_TABLE_NAME = 'audio_tracks' THEN
    PERFORM pg_notify('kathamala_cache', 'story:' || r.story_id);
  ELSE
    PERFORM pg_notify('kathamala_cache', 'listener:' || r.user_id);
  END IF;
  RETURN NULL;
END $$;
