/** True when PostgreSQL refused a write for a unique index (23505), however the driver wrapped it. */
export const isUniqueViolation = (err: unknown): boolean => {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
};
