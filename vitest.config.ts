import { defineConfig } from 'vitest/config';

/**
 * One runner for every unit and integration test. Server integration tests run on PGlite and,
 * when TEST_DATABASE_URL is set, again on a real PostgreSQL server (a fresh database per file).
 */
const serverProject = (name: string, dbKind: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name,
    root: './apps/server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    ...(dbKind === 'postgres' ? { include: ['src/**/*.int.test.ts', 'test/**/*.int.test.ts'] } : {}),
    environment: 'node',
    env: { TEST_DB_KIND: dbKind },
    // The run's migrated and seeded databases, which each file copies instead of building its own.
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
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
