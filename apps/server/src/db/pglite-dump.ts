import { sql } from 'kysely';
import { pgliteClients, type Db } from './client';

/**
 * PGlite's dump of its data directory (a tar, PGlite's own format, loaded back with its
 * `loadDataDir` option), consistent while the server runs: taken holding the database's only
 * connection, so no transaction is open meanwhile (PGlite runs one statement at a time, and the
 * Kysely driver hands its one connection to one caller at a time), just after a CHECKPOINT so
 * the data files carry every committed change.
 */
export async function dumpPglite(db: Db): Promise<Blob> {
  const client = pgliteClients.get(db);
  if (!client) throw new Error('the embedded database is not open in this process');
  return db.connection().execute(async (conn) => {
    await sql`checkpoint`.execute(conn);
    return client.dumpDataDir('none');
  });
}
