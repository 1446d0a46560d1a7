// The run's template databases (global-setup.ts): `make <pglite|postgres> <dir>` prints their JSON
// (TestTemplates); `drop <names…>` drops PostgreSQL templates at the end of the run.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, pgliteClients } from '../src/db/client';
import { migrateToLatest } from '../src/db/migrations';
import { seedDemo } from '../src/db/seed/demo';
import { LocalStorage } from '../src/plugins/storage';
import type { TestTemplates } from './global-setup';

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('PostgreSQL templates need TEST_DATABASE_URL');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function makePglite(dir: string): Promise<TestTemplates> {
  const seededFiles = path.join(dir, 'files');
  const db = await openDatabase({ kind: 'pglite', dataDir: undefined });
  const client = pgliteClients.get(db)!;
  const dump = async (name: string) => {
    const file = path.join(dir, name);
    // Written out first: a file's copy then starts without replaying the WAL (about 0.3 s of each file's start here).
    await client.exec('CHECKPOINT');
    await writeFile(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
    return file;
  };
  await migrateToLatest(db);
  const migrated = await dump('migrated.tar');
  await seedDemo(db, new LocalStorage(seededFiles));
  const seeded = await dump('seeded.tar');
  await db.destroy();
  return { kind: 'pglite', migrated, seeded, seededFiles };
}

async function makePostgres(dir: string): Promise<TestTemplates> {
  const seededFiles = path.join(dir, 'files');
  const stem = `hb_tpl_${randomBytes(4).toString('hex')}`;
  const migrated = `${stem}_migrated`;
  const seeded = `${stem}_seeded`;
  const urlOf = (name: string) => Object.assign(new URL(process.env.TEST_DATABASE_URL!), { pathname: `/${name}` }).toString();
  await admin((c) => c.query(`CREATE DATABASE "${migrated}"`));
  let db = await openDatabase({ kind: 'postgres', url: urlOf(migrated), poolSize: 2 });
  await migrateToLatest(db);
  await db.destroy();
  await admin((c) => c.query(`CREATE DATABASE "${seeded}" TEMPLATE "${migrated}"`));
  db = await openDatabase({ kind: 'postgres', url: urlOf(seeded), poolSize: 2 });
  await seedDemo(db, new LocalStorage(seededFiles));
  await db.destroy();
  return { kind: 'postgres', migrated, seeded, seededFiles };
}

const [command, ...args] = process.argv.slice(2);
if (command === 'make') {
  const [kind, dir] = args as [string, string];
  const templates = kind === 'postgres' ? await makePostgres(dir) : await makePglite(dir);
  console.log(JSON.stringify(templates));
} else if (command === 'drop') {
  await admin(async (c) => {
    for (const name of args) await c.query(`DROP DATABASE IF EXISTS "${name}"`);
  });
} else {
  console.error('usage: make-templates.ts make <pglite|postgres> <dir> | drop <database…>');
  process.exit(2);
}
