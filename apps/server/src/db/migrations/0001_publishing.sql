CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"payload" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "episodes" ALTER COLUMN "part_number" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "episodes" ALTER COLUMN "published_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "episodes" ALTER COLUMN "published_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "authors" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "episodes" ADD COLUMN "status" text DEFAULT 'draft' NOT NULL;--> statement-breakpoint
ALTER TABLE "episodes" ADD COLUMN "words" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "episodes" ADD COLUMN "publish_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "episodes" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "episodes" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "series" ADD COLUMN "author_id" integer;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "number_of_parts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "last_part_number" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "cover_uploaded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_author_id_authors_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."authors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "authors_user_key" ON "authors" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "authors_name_key" ON "authors" USING btree (fold_key("name"));--> statement-breakpoint
CREATE INDEX "episodes_story_status_idx" ON "episodes" USING btree ("story_id","status");--> statement-breakpoint
-- Episodes written before statuses existed were all out.
UPDATE "episodes" SET "status" = 'published', "published_at" = coalesce("published_at", now());--> statement-breakpoint
ALTER TABLE "episodes" ADD CONSTRAINT "episodes_status_check" CHECK ("status" IN ('draft', 'scheduled', 'published'));--> statement-breakpoint
UPDATE "stories" s SET
  "number_of_parts" = coalesce((SELECT max(e."part_number") FROM "episodes" e WHERE e."story_id" = s."id"), 0),
  "last_part_number" = coalesce((SELECT max(e."part_number") FROM "episodes" e WHERE e."story_id" = s."id"), 0);--> statement-breakpoint
UPDATE "series" r SET "author_id" = (SELECT s."author_id" FROM "stories" s WHERE s."series_id" = r."id" ORDER BY s."id" LIMIT 1);--> statement-breakpoint
-- Episode text becomes HTML (paragraphs, line breaks), escaped, as the publishing path stores it.
UPDATE "episodes" SET "content" = '<p>' || replace(replace(replace(replace(replace(
  "content", '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), E'\n\n', '</p><p>'), E'\n', '<br>') || '</p>'
  WHERE "content" NOT LIKE '<%';
