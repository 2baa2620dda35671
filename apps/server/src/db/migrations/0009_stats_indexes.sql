CREATE TABLE "story_readers" (
	"story_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"days" datemultirange NOT NULL,
	CONSTRAINT "story_readers_story_id_user_id_pk" PRIMARY KEY("story_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "story_part_reach" ADD COLUMN "views" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "story_readers" ADD CONSTRAINT "story_readers_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_readers" ADD CONSTRAINT "story_readers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "story_views_story_part_idx" ON "story_views" USING btree ("story_id","part_number","user_id");