import type { FieldError, FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client';

/** The error type of a message the server wrote (shown as it is; the form's own messages are locale keys). */
export const SERVER_ERROR = 'server';

export interface ServerErrorOptions<T extends FieldValues> {
  /** The form's setError (react-hook-form); without it every message is general. */
  setError?: UseFormSetError<T>;
  /** The fields that show the server's messages: their names, or server name → form field. */
  fields?: readonly Path<T>[] | Readonly<Record<string, Path<T>>>;
  /** The general message when the server said nothing readable (no connection, 5xx). */
  fallback: string;
}

/** The text of a Django REST message value: a string, or a list of them. */
function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() ? value : null;
  if (Array.isArray(value)) {
    const parts = value.map(textOf).filter((part): part is string => part !== null);
    return parts.length ? parts.join(' ') : null;
  }
  return null;
}

/**
 * The one way a failed call reaches a form. The server answers Django REST style: field
 * messages ({"email": ["..."]}) go under their fields with setError (the first one focused);
 * everything else ({"detail": "..."}, non_field_errors, fields the form does not show) makes one
 * general message, which is answered. Null when every message found its field. No readable
 * answer (a network failure, a 5xx) answers `fallback`.
 */
export function applyServerErrors<T extends FieldValues>(error: unknown, { setError, fields = [], fallback }: ServerErrorOptions<T>): string | null {
  if (!(error instanceof ApiError) || error.status >= 500) return fallback;
  const data = error.data;
  if (typeof data === 'string') return data.trim() && !data.trim().startsWith('<') ? data : fallback;
  if (!data || typeof data !== 'object') return fallback;

  const fieldOf = new Map<string, Path<T>>(Array.isArray(fields) ? fields.map((f: Path<T>) => [f, f]) : Object.entries(fields));
  const general: string[] = [];
  let placed = 0;
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    const message = textOf(value);
    if (!message) continue;
    const field = setError ? fieldOf.get(key) : undefined;
    if (field && setError) setError(field, { type: SERVER_ERROR, message }, { shouldFocus: placed++ === 0 });
    else general.push(message);
  }
  if (general.length) return general.join(' ');
  return placed ? null : fallback;
}

/** The app's own sentence, then the server's words ("There was an error registering 2fa. <why>"); `fallback` when the server said nothing readable. */
export function failureText(sentence: string, error: unknown, fallback = ''): string {
  return `${sentence} ${applyServerErrors(error, { fallback }) ?? ''}`.trim();
}

/** The text of a field's error: the server's words as they are, the form's own rules through the catalog. */
export function fieldErrorText(error: Pick<FieldError, 'type' | 'message'> | undefined, t: (key: string) => string): string | undefined {
  if (!error?.message) return undefined;
  return error.type === SERVER_ERROR ? error.message : t(error.message);
}
