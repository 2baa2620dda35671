-- Placeholder: filled by the work on moderation; a migration with no statement yet.
SELECT 1;
