import { JSONParser } from '@streamparser/json';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { yieldToLoop } from './slices';

/** Characters parsed between two turns of the event loop (a few milliseconds of work each). */
const PIECE_CHARS = 32 * 1024;

/**
 * A key that would reach an object's prototype, as Fastify's own parser (secure-json-parse)
 * suspects one: `"__proto__":` or `"constructor":`, escaped or not.
 */
const SUSPECT_KEY =
  /"(?:(?:_|\\u005[Ff]){2}(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff]){2}|(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072))"\s*:/;

function bodyError(code: 'FST_ERR_CTP_EMPTY_JSON_BODY' | 'FST_ERR_CTP_INVALID_JSON_BODY'): Error {
  return Object.assign(new Error(code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'Body cannot be empty' : 'Body is not valid JSON'), { code, statusCode: 400 });
}

/**
 * JSON text parsed a piece at a time, the event loop free between pieces: for a body of many
 * megabytes (a FHIR import may be 20 MB), where JSON.parse would hold the loop for all of it at
 * once (about 150 ms for 4 MB here, while every other request waits). The answer is the same.
 * A text with a suspect key goes to Fastify's own parser, which refuses prototype poisoning as
 * it does on every other route (a false alarm parses as usual, in one go).
 */
export async function parseJsonInSlices(text: string, fallback: (text: string) => unknown): Promise<unknown> {
  if (text.trim() === '') throw bodyError('FST_ERR_CTP_EMPTY_JSON_BODY');
  // The overlap finds a key split across two pieces.
  for (let at = 0; at < text.length; at += PIECE_CHARS) {
    if (SUSPECT_KEY.test(text.slice(Math.max(0, at - 40), at + PIECE_CHARS))) return fallback(text);
    if (at + PIECE_CHARS < text.length) await yieldToLoop();
  }
  let result: unknown;
  let values = 0;
  // separator '': the parser goes on after a first value, so a second one is seen (and refused).
  const parser = new JSONParser({ separator: '' });
  parser.onValue = ({ value, stack }) => {
    if (stack.length === 0) {
      result = value;
      values++;
    }
  };
  parser.onError = () => undefined;
  try {
    for (let at = 0; at < text.length; at += PIECE_CHARS) {
      parser.write(text.slice(at, at + PIECE_CHARS));
      if (at + PIECE_CHARS < text.length) await yieldToLoop();
    }
    if (!parser.isEnded) parser.end();
  } catch {
    throw bodyError('FST_ERR_CTP_INVALID_JSON_BODY');
  }
  if (values !== 1) throw bodyError('FST_ERR_CTP_INVALID_JSON_BODY');
  return result;
}

/**
 * In this (encapsulated) context, JSON bodies are read with parseJsonInSlices. Fastify still
 * collects the body and applies the route's bodyLimit.
 */
export function parseJsonBodiesInSlices(app: FastifyInstance) {
  const standard = app.getDefaultJsonParser('error', 'error');
  const fallback = (request: FastifyRequest) => (text: string) =>
    new Promise<unknown>((resolve, reject) => standard(request, text, (error, value) => (error ? reject(error) : resolve(value))));
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, async (request: FastifyRequest, body: string | Buffer) =>
    parseJsonInSlices(typeof body === 'string' ? body : body.toString('utf8'), fallback(request)),
  );
}
