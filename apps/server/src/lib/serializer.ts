import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Response serialization from the route's zod schema, compiled once to fast-json-stringify
 * (Fastify's own fast path). Only the fields the schema names are written, so a presenter can
 * never leak a column. Schemas JSON Schema cannot express fall back to zod's encoder.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = (routeSchema) => {
  try {
    const jsonSchema = z.toJSONSchema(routeSchema.schema, { io: 'output', target: 'draft-07', unrepresentable: 'throw' });
    const stringify = fastJson(withoutPropertyNames(jsonSchema) as Parameters<typeof fastJson>[0]);
    return (data: unknown) => stringify(data);
  } catch {
    return zodSerializerCompiler(routeSchema as Parameters<typeof zodSerializerCompiler>[0]);
  }
};

/** `propertyNames` (from z.record) only constrains keys; the serializer's ajv refuses it in strict mode. */
function withoutPropertyNames(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutPropertyNames);
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => key !== 'propertyNames')
        .map(([key, value]) => [key, withoutPropertyNames(value)]),
    );
  }
  return node;
}
