import type { FastifySchemaCompiler } from 'fastify';
import { safeParse, type $ZodType } from 'zod/v4/core';

/** One problem with a request's params, query, body or headers, in the shape the error handler renders. */
export interface ValidationIssue {
  instancePath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

/** The path of the first text holding a NUL character, or null. PostgreSQL cannot store one in text. */
export function findNul(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key];
    const found = findNul(child, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Every route's request schema, checked with zod — after one rule that holds for every route,
 * current and future: no text may carry a NUL character (a field error, not a database fault).
 */
export const validatorCompiler: FastifySchemaCompiler<$ZodType> =
  ({ schema }) =>
  (data) => {
    const nul = findNul(data);
    if (nul) {
      const issue: ValidationIssue = { instancePath: `/${nul.join('/')}`, keyword: 'custom', message: 'validation:nullCharacter', params: {} };
      return { error: [issue] as unknown as Error };
    }
    const result = safeParse(schema, data);
    if (!result.error) return { value: result.data };
    const issues: ValidationIssue[] = result.error.issues.map(({ path, code, message, ...params }) => ({
      instancePath: `/${path.map(String).join('/')}`,
      keyword: code,
      message,
      params,
    }));
    return { error: issues as unknown as Error };
  };
