import fp from 'fastify-plugin';
import { closeDatabase, pingDatabase, type Db } from '../db/client';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** Answers whether the database answers a trivial query within `ms` (default 2 s). */
    checkDatabase(ms?: number): Promise<boolean>;
  }
}

/** Decorates the app with an open database; closes it (bounded) when the app closes, after in-flight requests. */
export default fp<{ db: Db }>(
  async (app, { db }) => {
    app.decorate('db', db);
    app.decorate('checkDatabase', (ms = 2000) => pingDatabase(db, ms));
    app.addHook('onClose', async () => {
      await closeDatabase(db);
    });
  },
  { name: 'db' },
);
