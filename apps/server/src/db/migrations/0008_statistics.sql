CREATE TABLE "membership_joins" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"app_id" text NOT NULL,
	"story_id" integer,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "story_part_reach" (
	"story_id" integer NOT NULL,
	"part_number" integer NOT NULL,
	"readers" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "story_part_reach_story_id_part_number_pk" PRIMARY KEY("story_id","part_number")
);
--> statement-breakpoint
CREATE TABLE "story_part_view_days" (
	"story_id" integer NOT NULL,
	"part_number" integer NOT NULL,
	"day" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "story_part_view_days_story_id_part_number_day_pk" PRIMARY KEY("story_id","part_number","day")
);
--> statement-breakpoint
ALTER TABLE "membership_codes" ADD COLUMN "story_id" integer;--> statement-breakpoint
ALTER TABLE "membership_joins" ADD CONSTRAINT "membership_joins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_joins" ADD CONSTRAINT "membership_joins_app_id_billing_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."billing_apps"("app_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_joins" ADD CONSTRAINT "membership_joins_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_part_reach" ADD CONSTRAINT "story_part_reach_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_part_view_days" ADD CONSTRAINT "story_part_view_days_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "membership_joins_story_idx" ON "membership_joins" USING btree ("story_id","joined_at");--> statement-breakpoint
ALTER TABLE "membership_codes" ADD CONSTRAINT "membership_codes_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE set null ON UPDATE no action;