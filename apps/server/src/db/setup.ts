import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Storage } from '../plugins/storage';
import { openDatabase, type Db } from './client';
import { migrateToLatest } from './migrations';
import { seedDemo } from './seed/demo';

/** Opens the configured database, brings its schema up to date and, when asked, seeds the demo data. */
export async function prepareDatabase(config: Config, storage: Storage, log: Pick<FastifyBaseLogger, 'info'>): Promise<Db> {
  const db = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
  );
  try {
    const applied = await migrateToLatest(db);
    if (applied.length) log.info({ migrations: applied }, 'database migrated');
    if (config.seedDemo && (await seedDemo(db, storage))) log.info('demo data seeded');
    return db;
  } catch (err) {
    await db.destroy();
    throw err;
  }
}
