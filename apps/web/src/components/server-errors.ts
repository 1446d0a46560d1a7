import { ApiError } from '../lib/api-client';

export interface ServerErrors<F extends string> {
  /** Messages for the form's own fields, one text per field. */
  fields: Partial<Record<F, string>>;
  /** Everything else (detail, non_field_errors, fields the form does not show), or the fallback. */
  general: string | null;
}

const text = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const parts = value.map(text).filter((v): v is string => Boolean(v));
    return parts.length ? parts.join(' ') : null;
  }
  return null;
};

/**
 * Splits a failed call's answer, Django REST style ({"detail": ...} or {"field": ["..."]}), into
 * messages for the form's fields and one general message. A failure without a readable body
 * (network, 5xx without body) gives `fallback` as the general message.
 */
export function readServerErrors<F extends string>(error: unknown, fields: readonly F[], fallback: string): ServerErrors<F> {
  const result: ServerErrors<F> = { fields: {}, general: null };
  const data = error instanceof ApiError ? error.data : null;
  if (typeof data === 'string' && data.trim()) {
    result.general = data;
    return result;
  }
  const general: string[] = [];
  if (data && typeof data === 'object') {
    for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
      const message = text(value);
      if (!message) continue;
      if ((fields as readonly string[]).includes(key)) result.fields[key as F] = message;
      else general.push(message);
    }
  }
  if (general.length) result.general = general.join(' ');
  else if (Object.keys(result.fields).length === 0) result.general = fallback;
  return result;
}

/** The first message of a failed call, whatever field it belongs to (for a form of one field). */
export function serverErrorText(error: unknown, fallback: string): string {
  return readServerErrors(error, [], fallback).general ?? fallback;
}
