import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { MAX_ERROR_FIELDS, MAX_ERROR_MESSAGES_PER_FIELD } from '@healthbook/shared';
import { isBadValue, isDatabaseUnavailable } from '../db/client';
import { FieldError, HttpError, type Vars } from '../lib/http-errors';
import type { ValidationIssue } from '../lib/validator';

/** Seconds a client should wait before asking again when the database does not answer. */
const DATABASE_RETRY_AFTER_S = 5;

/**
 * A field-error body of bounded size, however many fields a request got wrong: at most
 * MAX_ERROR_FIELDS fields of at most MAX_ERROR_MESSAGES_PER_FIELD messages; the rest is counted
 * in non_field_errors.
 */
function boundedFieldErrors(request: FastifyRequest, fields: Map<string, string[]>): Record<string, string[]> {
  const body: Record<string, string[]> = {};
  let shown = 0;
  for (const [field, messages] of fields) {
    if (shown === MAX_ERROR_FIELDS) break;
    body[field.slice(0, 200)] = messages.slice(0, MAX_ERROR_MESSAGES_PER_FIELD);
    shown++;
  }
  const hidden = fields.size - shown;
  if (hidden > 0) (body.non_field_errors ??= []).push(request.t('errors:moreFieldErrors', { count: hidden }));
  return body;
}

/** The value a validation issue is about (zod 4 issues do not carry their input). */
function issueInput(request: FastifyRequest, context: string | undefined, instancePath: string): unknown {
  const sources: Record<string, unknown> = { params: request.params, querystring: request.query, body: request.body, headers: request.headers };
  let value = context ? sources[context] : undefined;
  for (const key of instancePath.split('/').filter(Boolean)) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

/** Turns a zod issue into a localised message; custom messages are locale keys. */
function issueMessage(request: FastifyRequest, issue: ValidationIssue, input: unknown): string {
  const message = issue.message ?? '';
  // A custom issue may carry the values its message names (e.g. both fields of a pair).
  const vars = issue.keyword === 'custom' && issue.params.params && typeof issue.params.params === 'object' ? (issue.params.params as Vars) : undefined;
  if (/^[a-z]+:[A-Za-z]+$/.test(message)) return request.t(message, vars);
  if (issue.keyword === 'invalid_union') {
    // The most telling message of the branches (e.g. "at most 2147483647" for an id too large).
    const branches = ((issue.params.errors as Array<Array<{ message?: string }>> | undefined) ?? []).flat();
    const keyed = branches.find((b) => /^[a-z]+:[A-Za-z]+$/.test(b.message ?? ''));
    return request.t(keyed?.message ?? 'validation:invalid');
  }
  const p = issue.params;
  switch (issue.keyword) {
    case 'invalid_type':
      return /received undefined/.test(message)
        ? request.t('validation:required')
        : request.t('validation:invalidType', { expected: String(p.expected ?? '') });
    case 'too_big':
      return p.origin === 'string'
        ? request.t('validation:tooLong', { max: Number(p.maximum) })
        : request.t('validation:tooBig', { max: Number(p.maximum) });
    case 'too_small':
      if (p.origin === 'string' && Number(p.minimum) === 1) return request.t('validation:required');
      return p.origin === 'string'
        ? request.t('validation:tooShort', { min: Number(p.minimum) })
        : request.t('validation:tooSmall', { min: Number(p.minimum) });
    case 'invalid_value':
      // The value is echoed, cut short: an error answer must not grow with the input.
      return request.t('validation:invalidChoice', { value: String(p.input ?? input ?? '').slice(0, 100) });
    case 'unrecognized_keys':
      return request.t('validation:unknownField');
    default:
      return request.t('validation:invalid');
  }
}

function fieldName(instancePath: string): string {
  const name = instancePath.replace(/^\//, '').split('/').join('.');
  return name || 'non_field_errors';
}

/**
 * Plain JSON, not the route's response schema for this status (a 503 while shutting down must
 * not fail /api/health's own 503 schema and turn into a 500).
 */
function sendJson(reply: FastifyReply, status: number, body: unknown) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .serializer((payload) => JSON.stringify(payload))
    .send(body);
}

function sendDetail(reply: FastifyReply, request: FastifyRequest, status: number, key: string, vars?: Vars, extra: Record<string, string | number> = {}) {
  return sendJson(reply, status, { detail: request.t(key, vars), ...extra });
}

/** Fastify's own client errors, by code, to our messages. */
const FRAMEWORK_ERRORS: Record<string, { status: number; key: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, key: 'errors:unsupportedMediaType' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, key: 'errors:invalidRequest' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, key: 'errors:bodyTooLarge' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, key: 'errors:emptyJsonBody' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, key: 'errors:invalidJson' },
  FST_ERR_BAD_URL: { status: 400, key: 'errors:badUrl' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, key: 'errors:badUrl' },
};

export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof HttpError) {
        reply.headers(error.headers);
        return sendDetail(reply, request, error.statusCode, error.detail, error.vars, error.extra);
      }
      if (error instanceof FieldError) {
        const fields = new Map(
          Object.entries(error.fields).map(([field, messages]) => [
            field,
            messages.map((m) => (typeof m === 'string' ? request.t(m) : request.t(m.key, m.vars))),
          ]),
        );
        return sendJson(reply, error.statusCode, boundedFieldErrors(request, fields));
      }
      if (Array.isArray(error.validation) && error.validation.length > 0) {
        const fields = new Map<string, string[]>();
        for (const issue of error.validation as unknown as ValidationIssue[]) {
          const field = fieldName(issue.instancePath);
          const messages = fields.get(field) ?? [];
          if (messages.length < MAX_ERROR_MESSAGES_PER_FIELD) messages.push(issueMessage(request, issue, issueInput(request, error.validationContext, issue.instancePath)));
          fields.set(field, messages);
        }
        return sendJson(reply, 400, boundedFieldErrors(request, fields));
      }
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: { message: error.message, code: error.code } }, 'database unavailable');
        reply.header('Retry-After', String(DATABASE_RETRY_AFTER_S));
        return sendDetail(reply, request, 503, 'errors:databaseUnavailable');
      }
      if (isBadValue(error)) {
        request.log.warn({ err: { message: error.message, code: error.code } }, 'the database refused a value of the request');
        return sendDetail(reply, request, 400, 'errors:invalidRequest');
      }
      const framework = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
      if (framework) {
        const type = String(request.headers['content-type'] ?? '').split(';')[0] ?? '';
        return sendDetail(reply, request, framework.status, framework.key, { type, limit: '1 MB' });
      }
      if (error.statusCode === 429) {
        return sendDetail(reply, request, 429, 'errors:throttled', { seconds: Number(reply.getHeader('retry-after') ?? 60) });
      }
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return sendDetail(reply, request, error.statusCode, 'errors:invalidRequest');
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      } else {
        request.log.error({ err: error }, 'unhandled error');
      }
      return sendDetail(reply, request, 500, 'errors:serverError');
    });

    app.setNotFoundHandler((request, reply) => {
      // Page addresses of the web app answer its index; the router there decides what to show.
      // Not for API paths, and not for files (an old asset name after a rebuild must be a 404, not HTML).
      const pathOnly = request.url.split('?')[0] ?? '';
      const wantsPage =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !/^\/(api|dev|assets)(\/|$)/.test(pathOnly) &&
        !/\.[a-z0-9]{1,8}$/i.test(pathOnly);
      if (wantsPage && app.webIndex) {
        return reply.code(200).type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(app.webIndex);
      }
      return sendDetail(reply, request, 404, 'errors:notFound');
    });
  },
  { name: 'errors', dependencies: ['i18n'] },
);
