/** A PostgreSQL unique violation (pg and PGlite both carry the SQLSTATE and constraint name). */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return e?.code === '23505' && e.constraint === constraint;
}
