-- The community area (issue 28): roles, profiles, posts with images, likes, comments, mentions,
-- community notifications and the audit log. Written by hand (see docs on migrations).
-- Every account has one role. Authors stay authors: the flag they already have sets it, now and
-- whenever an account becomes an author later (the trigger below), unless an admin made them an
-- editor or admin.
ALTER TABLE users ADD COLUMN role text NOT NULL DEFAULT 'reader'
  CONSTRAINT users_role_check CHECK (role IN ('reader', 'author', 'editor', 'admin'));
--> statement-breakpoint
UPDATE users SET role = 'author' WHERE is_author AND role = 'reader';
--> statement-breakpoint
CREATE OR REPLACE FUNCTION community_author_role() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.is_author AND NEW.role = 'reader' THEN NEW.role := 'author'; END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_author_role BEFORE INSERT OR UPDATE OF is_author, role ON users
  FOR EACH ROW EXECUTE FUNCTION community_author_role();
--> statement-breakpoint
-- A person's community profile beside their account: bio and picture (a rejected profile loses both).
CREATE TABLE community_profiles (
  user_id integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  bio text NOT NULL DEFAULT '',
  -- The picture's version (a hash of its bytes) in its file names; null: no picture.
  avatar_version text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE community_posts (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  body text NOT NULL,
  lang text NOT NULL DEFAULT 'en' CHECK (lang IN ('si', 'en')),
  status text NOT NULL DEFAULT 'approved'
    CHECK (status IN ('approved', 'pending', 'rejected', 'removed')),
  status_reason text,
  -- Set while flags hide it until an editor decides (moderation).
  hidden_at timestamptz,
  pinned_at timestamptz,
  shared_post_id integer REFERENCES community_posts(id) ON DELETE SET NULL,
  shared_story_id integer REFERENCES stories(id) ON DELETE SET NULL,
  likes_count integer NOT NULL DEFAULT 0,
  comments_count integer NOT NULL DEFAULT 0,
  shares_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  edited_at timestamptz
);
--> statement-breakpoint
-- The public feed: newest first over what everyone sees; page 50 reads 1,000 entries of it.
CREATE INDEX community_posts_feed_idx ON community_posts (id DESC)
  WHERE status = 'approved' AND hidden_at IS NULL;
--> statement-breakpoint
CREATE INDEX community_posts_user_idx ON community_posts (user_id, id DESC);
--> statement-breakpoint
CREATE INDEX community_posts_pinned_idx ON community_posts (pinned_at DESC, id DESC)
  WHERE pinned_at IS NOT NULL AND status = 'approved' AND hidden_at IS NULL;
--> statement-breakpoint
CREATE INDEX community_posts_shared_post_idx ON community_posts (shared_post_id)
  WHERE shared_post_id IS NOT NULL;
--> statement-breakpoint
-- An image of a post; post_id null while it is the writer's draft (uploaded to post/new).
CREATE TABLE community_images (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  post_id integer REFERENCES community_posts(id) ON DELETE CASCADE,
  position smallint NOT NULL DEFAULT 0,
  version text NOT NULL,
  width integer NOT NULL,
  height integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX community_images_post_idx ON community_images (post_id, position, id);
--> statement-breakpoint
CREATE INDEX community_images_drafts_idx ON community_images (user_id) WHERE post_id IS NULL;
--> statement-breakpoint
-- One like per reader and post: the key makes a like sent twice at once count once.
CREATE TABLE community_likes (
  post_id integer NOT NULL REFERENCES community_posts(id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (post_id, user_id)
);
--> statement-breakpoint
CREATE INDEX community_likes_user_idx ON community_likes (user_id, post_id);
--> statement-breakpoint
CREATE TABLE community_comments (
  id serial PRIMARY KEY,
  post_id integer NOT NULL REFERENCES community_posts(id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  body text NOT NULL,
  lang text NOT NULL DEFAULT 'en' CHECK (lang IN ('si', 'en')),
  status text NOT NULL DEFAULT 'approved'
    CHECK (status IN ('approved', 'pending', 'rejected', 'removed')),
  status_reason text,
  hidden_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX community_comments_post_idx ON community_comments (post_id, id);
--> statement-breakpoint
-- Who a post or a comment mentions (comment_id null: the post itself).
CREATE TABLE community_mentions (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  post_id integer NOT NULL REFERENCES community_posts(id) ON DELETE CASCADE,
  comment_id integer REFERENCES community_comments(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX community_mentions_key
  ON community_mentions (user_id, post_id, coalesce(comment_id, 0));
--> statement-breakpoint
CREATE INDEX community_mentions_user_idx ON community_mentions (user_id, id DESC);
--> statement-breakpoint
CREATE INDEX community_mentions_post_idx ON community_mentions (post_id, comment_id);
--> statement-breakpoint
-- A notification of the community for one person. dedupe_key names the event and the reason:
-- the unique index makes a rerun job, or a like taken back and given again, notify once.
CREATE TABLE community_notifications (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('like', 'comment', 'mention', 'share', 'follow')),
  actor_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  post_id integer REFERENCES community_posts(id) ON DELETE CASCADE,
  comment_id integer REFERENCES community_comments(id) ON DELETE CASCADE,
  excerpt text NOT NULL DEFAULT '',
  dedupe_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz
);
--> statement-breakpoint
CREATE UNIQUE INDEX community_notifications_dedupe_key
  ON community_notifications (user_id, dedupe_key);
--> statement-breakpoint
CREATE INDEX community_notifications_user_idx ON community_notifications (user_id, id DESC);
--> statement-breakpoint
-- Who did what to whom and why: role changes, removals, pins, decisions. Written in the same
-- transaction as the change it records; never updated.
CREATE TABLE community_audit (
  id bigserial PRIMARY KEY,
  actor_id integer REFERENCES users(id) ON DELETE SET NULL,
  action text NOT NULL,
  target_kind text NOT NULL,
  target_id integer NOT NULL,
  reason text,
  detail jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX community_audit_target_idx ON community_audit (target_kind, target_id, id);
--> statement-breakpoint
-- A post's comment count is its comments that others see, whoever changes one (a comment
-- posted, approved or rejected by an editor, hidden by flags, removed).
CREATE OR REPLACE FUNCTION community_comment_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pid integer;
BEGIN
  IF TG_OP = 'DELETE' THEN pid := OLD.post_id; ELSE pid := NEW.post_id; END IF;
  UPDATE community_posts SET comments_count = (
    SELECT count(*) FROM community_comments c
    WHERE c.post_id = pid AND c.status = 'approved' AND c.hidden_at IS NULL)
  WHERE id = pid;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER community_comments_count AFTER INSERT OR UPDATE OF status, hidden_at OR DELETE
  ON community_comments FOR EACH ROW EXECUTE FUNCTION community_comment_count();
