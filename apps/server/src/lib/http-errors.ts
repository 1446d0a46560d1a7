/**
 * Errors are thrown, not sent: one handler renders them in the Django-REST shapes,
 * localised by Accept-Language. `detail` and field messages are locale keys
 * ("namespace:key") or literal messages.
 */
export type Vars = Record<string, string | number>;

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly vars: Vars = {},
    readonly headers: Record<string, string> = {},
    /** More fields of the answer beside `detail` (e.g. a share's `reason`). */
    readonly extra: Record<string, string | number> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

/** A 400 with messages per field: { field: ["message", ...] }. */
export class FieldError extends Error {
  constructor(
    readonly fields: Record<string, Array<string | { key: string; vars?: Vars }>>,
    readonly statusCode = 400,
  ) {
    super('Field errors');
    this.name = 'FieldError';
  }
}

export const notFound = () => new HttpError(404, 'errors:notFound');
export const badRequest = (detail = 'errors:invalidRequest', vars?: Vars) => new HttpError(400, detail, vars);
