import fp from 'fastify-plugin';
import { sql } from 'kysely';
import type { Db } from '../db/client';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** Answers whether the database answers a trivial query. */
    checkDatabase(): Promise<boolean>;
  }
}

/** Decorates the app with an open database; closes it when the app closes (after in-flight requests). */
export default fp<{ db: Db }>(
  async (app, { db }) => {
    app.decorate('db', db);
    app.decorate('checkDatabase', async () => {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    });
    app.addHook('onClose', async () => {
      await db.destroy();
    });
  },
  { name: 'db' },
);
