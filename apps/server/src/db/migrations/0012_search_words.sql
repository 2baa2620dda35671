CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL,
	"stories" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
-- The words of the stories indexed so far; from here on refreshSearchDoc keeps the counts.
INSERT INTO "search_words" ("word", "stories")
  SELECT w, count(*)::int FROM "stories", unnest(tsvector_to_array("search_doc")) AS w
  WHERE "search_doc" IS NOT NULL AND char_length(w) >= 4 GROUP BY w;
