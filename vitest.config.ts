import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The server integration files that run on PostgreSQL too: those where the database engine
 * matters, each saying why in its first line ("// On PostgreSQL too (vitest.config.ts): …").
 * PGlite runs one query at a time, so a race (requests sent at once: single-use links, caps, one
 * booking of a slot) only races on a real server; a second process on the same database, the pool
 * and an outage exist only there. Every other file proves the same on either, so it runs once.
 */
const SERVER_ROOT = path.resolve(import.meta.dirname, 'apps/server');
const ON_POSTGRES_TOO = /^\/\/ On PostgreSQL too \(vitest\.config\.ts\): ./;
const postgresFiles = ['src', 'test']
  .flatMap((dir) => readdirSync(path.join(SERVER_ROOT, dir), { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f)))
  .filter((f) => f.endsWith('.int.test.ts') && ON_POSTGRES_TOO.test(readFileSync(path.join(SERVER_ROOT, f), 'utf8')))
  .map((f) => f.split(path.sep).join('/'));

/**
 * One runner for every unit and integration test. Server integration tests run on PGlite and,
 * when TEST_DATABASE_URL is set, those where the database matters (postgresFiles) again on a real
 * PostgreSQL server (a fresh database per file, copied from the run's template).
 */
const serverProject = (name: string, dbKind: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name,
    root: './apps/server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    ...(dbKind === 'postgres' ? { include: postgresFiles } : {}),
    environment: 'node',
    // The files of a worker share their imported modules: the server's import graph, loaded once per
    // worker instead of once per file, was the largest part of their time. Each file still builds
    // its own app and database, and no server test mocks a module.
    isolate: false,
    env: { TEST_DB_KIND: dbKind },
    // The run's migrated and seeded databases, which each file copies instead of building its own.
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    // Vitest's default on this 2-core machine is one worker; the integration files wait on their
    // databases and sockets much of the time, so two keep both cores busy.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'shared', root: './packages/shared', include: ['src/**/*.test.ts'], environment: 'node' } },
      serverProject('server', 'pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-pg', 'postgres')] : []),
      {
        extends: true,
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          // A component test that renders a whole page can take several seconds on a busy machine.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
