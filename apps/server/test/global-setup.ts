import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

/**
 * Once per run, the databases every test file starts from: one migrated, one migrated and seeded
 * with the demo data (with the files the seed stores). A file then copies one (PGlite: loads the
 * dumped data directory, no initdb, no migrations; PostgreSQL: CREATE DATABASE … TEMPLATE) instead
 * of building it again: that was most of a file's start on this 2-core machine. Tests that need an
 * empty database (first start, migrations) still open one with openFreshDatabase().
 */
export interface TestTemplates {
  kind: 'pglite' | 'postgres';
  /** PGlite: the dumped data directory's file; PostgreSQL: the template database's name. */
  migrated: string;
  seeded: string;
  /** The files the demo seed stored (organisation logos…), copied into a seeded app's DATA_DIR/files. */
  seededFiles: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testTemplates: TestTemplates;
  }
}

/**
 * Builds the templates in a Node process of its own (make-templates.ts, run by tsx as the product
 * runs): the server's modules load there exactly as in production, outside Vite's module runner.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hb-templates-'));
  const kind = project.name === 'server-pg' ? 'postgres' : 'pglite';
  const script = path.join(import.meta.dirname, 'make-templates.ts');
  const run = (...args: string[]) => promisify(execFile)(process.execPath, ['--import', 'tsx', script, ...args], { cwd: import.meta.dirname, maxBuffer: 1 << 20 });
  const { stdout } = await run('make', kind, dir);
  const templates = JSON.parse(stdout.trim().split('\n').at(-1)!) as TestTemplates;
  project.provide('testTemplates', templates);
  return async () => {
    if (kind === 'postgres') await run('drop', templates.migrated, templates.seeded);
    await rm(dir, { recursive: true, force: true });
  };
}
