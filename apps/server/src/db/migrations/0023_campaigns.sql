-- Placeholder: filled by the work on campaigns; a migration with no statement yet.
SELECT 1;
