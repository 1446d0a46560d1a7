import { createHash } from 'node:crypto';
import fastJson from 'fast-json-stringify';
import type { FastifyReply, FastifyRequest, FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Response serialization from the route's zod schema, compiled once to fast-json-stringify
 * (Fastify's own fast path). Only the fields the schema names are written, so a presenter can
 * never leak a column. Schemas JSON Schema cannot express fall back to zod's encoder.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = (routeSchema) => {
  const known = compiled.get(routeSchema.schema);
  if (known) return known;
  const serialize = compile(routeSchema);
  compiled.set(routeSchema.schema, serialize);
  return serialize;
};

/**
 * Each schema's serializer, made once per process: a schema is a module's constant, and the same
 * route registered again (another app in the same process: the tests build one per file) reuses
 * it. Compiling every route's was most of an app's start (about 2 s here).
 */
const compiled = new WeakMap<z.ZodType, (data: unknown) => string>();

function compile(routeSchema: Parameters<FastifySerializerCompiler<z.ZodType>>[0]): (data: unknown) => string {
  try {
    const jsonSchema = z.toJSONSchema(routeSchema.schema, { io: 'output', target: 'draft-07', unrepresentable: 'throw' });
    const stringify = fastJson(forFastJson(jsonSchema) as Parameters<typeof fastJson>[0]);
    return (data: unknown) => stringify(data);
  } catch {
    return zodSerializerCompiler(routeSchema as Parameters<typeof zodSerializerCompiler>[0]) as (data: unknown) => string;
  }
}

/**
 * Adapts zod's JSON Schema to fast-json-stringify's fast paths:
 * - `propertyNames` (from z.record) only constrains keys, and the serializer's ajv refuses it;
 * - a nullable object (`anyOf: [object, null]`) becomes `nullable: true`, which is written
 *   directly instead of validating each branch with ajv on every response.
 */
function forFastJson(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forFastJson);
  if (!node || typeof node !== 'object') return node;
  const schema = node as Record<string, unknown>;
  const anyOf = schema.anyOf as Array<Record<string, unknown>> | undefined;
  if (anyOf?.length === 2) {
    const nullIndex = anyOf.findIndex((s) => s.type === 'null');
    const other = anyOf[1 - nullIndex];
    if (nullIndex !== -1 && other && other.type === 'object') {
      const { anyOf: _drop, ...rest } = schema;
      return forFastJson({ ...rest, ...other, nullable: true });
    }
  }
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== 'propertyNames')
      .map(([key, value]) => [key, forFastJson(value)]),
  );
}

/**
 * Sends JSON already serialised (an answer kept in memory as text): Fastify passes a string
 * through untouched, so the route's response schema is not applied a second time. The text
 * must have been made from the same presenter the schema describes.
 */
export function sendSerialized(reply: FastifyReply, json: string) {
  return (reply as FastifyReply).type('application/json; charset=utf-8').send(json);
}

/**
 * Sends JSON that someone else may change at any moment (an organisation's branding, the list of
 * organisations): browsers keep it but ask again every time (no-cache), and an unchanged answer
 * is a 304 without a body. An edit shows on the next page at once, without costing a whole answer
 * on every page.
 */
export function sendRevalidated(request: FastifyRequest, reply: FastifyReply, json: string) {
  const tag = `W/"${createHash('sha1').update(json).digest('base64url')}"`;
  reply.header('Cache-Control', 'public, no-cache').header('ETag', tag);
  const asked = request.headers['if-none-match'];
  if (asked && asked.split(',').some((given) => given.trim() === tag)) return reply.code(304).send();
  return sendSerialized(reply, json);
}
