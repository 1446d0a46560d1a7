import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/**
 * A service built once and decorated on the app, as a named plugin that states what it needs
 * (model: fastify/demo plugins/app/*): `app.register(servicePlugin(...))` in app.ts, in
 * dependency order. The decorator's type is declared beside the service class.
 */
export function servicePlugin<K extends keyof FastifyInstance, O extends Record<string, unknown> = Record<never, never>>(
  decorator: K,
  dependencies: string[],
  build: (app: FastifyInstance, opts: O) => FastifyInstance[K],
) {
  return fp<O>(
    async (app, opts) => {
      // Fastify's decorate() types every key of FastifyInstance at once; the value is the one built for K.
      (app.decorate as (name: string, value: unknown) => FastifyInstance)(decorator as string, build(app, opts));
    },
    { name: `${String(decorator)}-service`, dependencies },
  );
}
