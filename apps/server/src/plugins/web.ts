import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';

declare module 'fastify' {
  interface FastifyInstance {
    /** The built web app's index.html, served for page addresses; null when not built. */
    webIndex: Buffer | null;
  }
}

/**
 * The built web app's index.html, read once and decorated at the root: the not-found handler
 * (errors.ts) answers page addresses with it.
 */
export const webIndexPlugin = fp<{ webDist: string | undefined }>(
  async (app, { webDist }) => {
    app.decorate('webIndex', webDist ? await readFile(path.join(webDist, 'index.html')) : null);
  },
  { name: 'web-index' },
);

/**
 * Serves the built web app's files (public context): hashed assets cached for a year,
 * everything else revalidated. Unknown page addresses get index.html (see webIndexPlugin).
 */
export default fp<{ webDist: string | undefined }>(
  async (app, { webDist }) => {
    if (!webDist) return;
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('Cache-Control', 'public, max-age=31536000, immutable');
        } else {
          res.header('Cache-Control', 'no-cache');
        }
      },
    });
  },
  { name: 'web' },
);
