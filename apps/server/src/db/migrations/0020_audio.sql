-- Placeholder: filled by the work on audio; a migration with no statement yet.
SELECT 1;
