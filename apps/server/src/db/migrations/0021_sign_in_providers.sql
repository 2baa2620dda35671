-- Placeholder: filled by the work on sign_in_providers; a migration with no statement yet.
SELECT 1;
