-- Placeholder: filled by the work on community; a migration with no statement yet.
SELECT 1;
