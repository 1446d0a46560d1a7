import fp from 'fastify-plugin';
import compress from '@fastify/compress';
import { constants } from 'node:zlib';

/**
 * What is compressed: JSON (the API's answers, FHIR), text (not an event stream, which must flow
 * as written), XML, JavaScript and SVG. Never files that are compressed already (PDFs, images,
 * archives, the web app's precompressed assets, which carry their own Content-Encoding) nor
 * anything sent as opaque bytes.
 */
export const COMPRESSIBLE_TYPES = /^text\/(?!event-stream)|[+/]json(?:;|$)|[+/]xml(?:;|$)|^application\/javascript|^image\/svg\+xml/;

/**
 * Answers compressed for clients that accept it (brotli preferred, else gzip), from 1 KB up;
 * brotli at quality 4, which costs about what gzip does (11 is for files built once, as the web
 * app's are). WebSocket upgrades are untouched: the chat's frames are not replies.
 */
export default fp(
  async (app) => {
    await app.register(compress, {
      global: true,
      encodings: ['br', 'gzip'],
      threshold: 1024,
      customTypes: COMPRESSIBLE_TYPES,
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    });
  },
  { name: 'compression' },
);
