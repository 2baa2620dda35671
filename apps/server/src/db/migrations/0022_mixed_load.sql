-- Placeholder: filled by the work on mixed_load; a migration with no statement yet.
SELECT 1;
