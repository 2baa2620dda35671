-- Which SINGLISH_KEY_VERSION each story's and author's Singlish keys were computed with. 0 for
-- every row here: start-up (backfillSinglishKeys) recomputes keys older than the code's version,
-- so a change of the folding (version 2: ee and oo read as ී and ූ, and ේ/ෝ words keep a
-- second key) reaches the stored rows, and the stored and the query keys meet again.
ALTER TABLE "authors" ADD COLUMN "singlish_key_version" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "singlish_key_version" smallint DEFAULT 0 NOT NULL;