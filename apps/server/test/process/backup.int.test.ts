// On PostgreSQL too (vitest.config.ts): with DATABASE_URL a backup is pg_dump's, and the command says so.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { MIGRATION_NAMES, migrateUpTo } from '../../src/db/migrations';
import { openFreshDatabase, testDbKind } from '../build-app';
import { DEMO_ADMIN, exitWithin, freePort, killed, run, serverRoot, signIn, waitForHealth, type ServerProc } from './support';

/**
 * Backup and restore as an operator does them, with real processes: a demo installation (the
 * server on a fresh DATA_DIR, demo data seeded) gets a record, a document with its file and a
 * new account through the API; `backup --to FILE` runs while it serves (the server takes the
 * dump for the CLI over its operator socket); the server stops; `restore --from FILE` fills a
 * new DATA_DIR; a server started there has every record, file (same bytes) and account (signs
 * in). A damaged archive and a non-empty DATA_DIR are refused, and a refused restore leaves
 * nothing behind. On PostgreSQL the command says to use pg_dump and archives only the files.
 */

const PATIENT = { email: 'patient@healthbook.example', password: 'Healthbook#2026', org: 'healthbook' };
const NEW_PASSWORD = 'Backup-Restore-2026!';

/** The bytes of an attachment that is only ours: a tiny PDF with a marker the download must carry back. */
const MARKER = `backup-test-${Date.now()}`;
const pdf = Buffer.from(
  `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n% ${MARKER}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
);

const started: ServerProc[] = [];
const dirs: string[] = [];

async function startOn(dataDir: string, extra: Record<string, string> = {}): Promise<ServerProc> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = run('server', [], { DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: base, ...extra });
  const server = { ...proc, port, base };
  started.push(server);
  await waitForHealth(proc, base, 90_000);
  return server;
}

async function stop(server: ServerProc) {
  server.child.kill('SIGTERM');
  const { code } = await exitWithin(server, 15_000);
  expect(code).toBe(0);
}

const cli = async (args: string[], env: Record<string, string>) => {
  const proc = run('cli', args, env);
  const { code } = await exitWithin(proc, 120_000);
  return { code, out: proc.stdout(), err: proc.stderr() };
};

async function api<T = unknown>(base: string, token: string, method: string, url: string, body?: object): Promise<{ status: number; json: T }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en', ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
}

afterAll(async () => {
  for (const server of started) await killed(server);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(testDbKind() === 'postgres')('backup and restore of an embedded installation (server and CLI as processes)', () => {
  let work: string;
  let first: string;
  let archive: string;
  let recordId: number;
  let documentId: number;
  let newcomer: { email: string; org: string; password: string };
  let backupOut = '';

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'hb-bk-'));
    dirs.push(work);
    first = path.join(work, 'first');
    archive = path.join(work, 'healthbook.tar.gz');
  });

  it('backs up a demo installation while it serves, with what was added through the API', async () => {
    const server = await startOn(first);
    const patient = await signIn(server.base, PATIENT);

    // A record.
    const record = await api<{ id: number }>(server.base, patient, 'POST', '/api/v1/hr/condition/', { name: `Backup check ${MARKER}`, start_date: '2021-03-01' });
    expect(record.status, JSON.stringify(record.json)).toBe(201);
    recordId = record.json.id;

    // A document with its file.
    const form = new FormData();
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'backup-check.pdf');
    const upload = await fetch(`${server.base}/api/v1/documents/`, { method: 'POST', headers: { authorization: `Bearer ${patient}` }, body: form });
    expect(upload.status, await upload.clone().text()).toBe(201);
    documentId = ((await upload.json()) as { id: number }).id;

    // An account: invited by the organisation admin, registered with the code, e-mail confirmed.
    const admin = await signIn(server.base, DEMO_ADMIN);
    const email = `restored-${Date.now()}@example.test`;
    const invite = await api<{ signup_code: string }>(server.base, admin, 'POST', '/api/v1/admin/invitations/', {
      first_name: 'Rhea',
      last_name: 'Stored',
      dob: '1990-02-03',
      gender: 'female',
      email,
    });
    expect(invite.status, JSON.stringify(invite.json)).toBe(201);
    const register = await fetch(`${server.base}/api/v1/users/register/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        user_id: null,
        first_name: 'Rhea',
        last_name: 'Stored',
        sex: 'female',
        dob: '1990-02-03',
        email,
        password: NEW_PASSWORD,
        signup_code: invite.json.signup_code,
        is_terms_privacy_policy_accepted: true,
        org_id: 'healthbook',
      }),
    });
    expect(register.status, await register.clone().text()).toBe(201);
    let link: RegExpExecArray | null = null;
    for (let i = 0; i < 100 && !link; i++) {
      const mails = (await (await fetch(`${server.base}/dev/mailbox/messages?to=${encodeURIComponent(email)}`)).json()) as Array<{ text: string }>;
      link = /\/healthbook\/email\/confirm\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)/.exec(mails.map((m) => m.text).join('\n'));
      if (!link) await sleep(100);
    }
    expect(link, 'the confirmation mail').not.toBeNull();
    const confirm = await fetch(`${server.base}/api/v1/users/confirm_email/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uid: link![1], token: link![2] }),
    });
    expect(confirm.status).toBe(200);
    newcomer = { email, org: 'healthbook', password: NEW_PASSWORD };
    await signIn(server.base, newcomer);

    // The backup, while the server holds DATA_DIR and serves requests meanwhile.
    const t0 = Date.now();
    const busy = (async () => {
      let answered = 0;
      while (Date.now() - t0 < 1500) {
        const res = await api(server.base, patient, 'GET', '/api/v1/hr/condition/');
        if (res.status === 200) answered++;
      }
      return answered;
    })();
    const backup = await cli(['backup', '--to', path.relative(serverRoot, archive)], { DATA_DIR: first });
    backupOut = backup.out;
    expect(backup.err).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.out).toContain(`Backup written to ${archive}`);
    expect(await busy).toBeGreaterThan(0);
    console.info(`backup of the demo installation: ${Date.now() - t0} ms, ${(await stat(archive)).size} bytes`);
    // Nothing but the archive beside it: no temporary file left.
    expect((await readdir(work)).sort()).toEqual(['first', 'healthbook.tar.gz']);
    // Written by the server for the CLI, into the operator's path.
    expect(server.stderr()).not.toMatch(/error/i);

    // A second backup to the same name is refused unless --force.
    const again = await cli(['backup', '--to', archive], { DATA_DIR: first });
    expect(again.code).toBe(1);
    expect(again.err).toContain('exists; choose another name, or add --force');

    // Restore is refused while the server holds DATA_DIR.
    const busyRestore = await cli(['restore', '--from', archive, '--force'], { DATA_DIR: first });
    expect(busyRestore.code).toBe(75);
    expect(busyRestore.err).toMatch(/restore refused: DATA_DIR .* is in use by process \d+ .*Stop the server first/);

    await stop(server);
  }, 240_000);

  it('the archive holds a manifest with the schema level, the database dump, the files and checksums', () => {
    const listing = execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' }).trim().split('\n');
    expect(listing[0]).toBe('database/pglite.tar');
    expect(listing.at(-1)).toBe('manifest.json');
    expect(listing).toContain('jwt-secret');
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', archive, 'manifest.json'], { encoding: 'utf8' })) as {
      format: string;
      formatVersion: number;
      migrations: { level: string };
      database: { kind: string; entry: { sha256: string } };
      files: { count: number; entries: Array<{ path: string; sha256: string }> };
    };
    expect(manifest.format).toBe('healthbook-backup');
    expect(manifest.formatVersion).toBe(1);
    expect(manifest.database.kind).toBe('pglite');
    expect(manifest.database.entry.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.migrations.level).toMatch(/^\d{4}_/);
    expect(manifest.files.count).toBe(listing.filter((name) => name.startsWith('files/')).length);
    expect(manifest.files.entries.map((e) => e.path).sort()).toEqual(listing.filter((name) => name.startsWith('files/')).sort());
    expect(backupOut).toContain(`${manifest.files.count} files`);
  });

  it('restores into a new DATA_DIR; a server there has the record, the file (same bytes) and the account', async () => {
    const second = path.join(work, 'second');
    const t0 = Date.now();
    const restored = await cli(['restore', '--from', archive], { DATA_DIR: second });
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.out).toContain(`Restored into ${second}`);
    console.info(`restore of the demo installation: ${Date.now() - t0} ms`);
    expect((await readdir(second)).sort()).toEqual(['files', 'jwt-secret', 'pglite']);
    // Nothing left beside it (the working directory is gone).
    expect((await readdir(work)).filter((name) => name.includes('restoring'))).toEqual([]);

    const server = await startOn(second);
    const patient = await signIn(server.base, PATIENT);
    const records = await api<{ results: Array<{ id: number; name: string }> }>(server.base, patient, 'GET', '/api/v1/hr/condition/');
    expect(records.status).toBe(200);
    expect(records.json.results.find((r) => r.id === recordId)?.name).toBe(`Backup check ${MARKER}`);
    const file = await fetch(`${server.base}/api/v1/documents/${documentId}/file/`, { headers: { authorization: `Bearer ${patient}` } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(pdf)).toBe(true);
    // The demo's own files too (an organisation's logo, served from file storage).
    const logo = await fetch(`${server.base}/api/v1/organization_detail_by_name/healthbook`);
    expect(logo.status).toBe(200);
    await signIn(server.base, newcomer);
    await signIn(server.base, DEMO_ADMIN);
    await stop(server);
  }, 240_000);

  it('refuses a damaged archive with a clear message, and leaves DATA_DIR untouched', async () => {
    const target = path.join(work, 'never');
    // Cut short.
    const bytes = await readFile(archive);
    const truncated = path.join(work, 'truncated.tar.gz');
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const cut = await cli(['restore', '--from', truncated], { DATA_DIR: target });
    expect(cut.code).toBe(1);
    expect(cut.err).toMatch(/^restore refused: the archive is damaged or (truncated|not gzip-compressed) \(.+\)\. DATA_DIR was not touched\.$/m);
    expect(existsSync(target)).toBe(false);

    // A file changed inside an archive that is still a valid tar.gz: its checksum does not match.
    const tarBytes = gunzipSync(bytes);
    const at = tarBytes.indexOf(Buffer.from(`% ${MARKER}`)) + 2;
    expect(at).toBeGreaterThan(2);
    tarBytes[at] = tarBytes[at] === 0x41 ? 0x42 : 0x41;
    const tampered = path.join(work, 'tampered.tar.gz');
    await writeFile(tampered, gzipSync(tarBytes));
    const bad = await cli(['restore', '--from', tampered], { DATA_DIR: target });
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/restore refused: the archive does not match its manifest: files\/documents\/\S+\.pdf: checksum mismatch \(the archive is damaged\)/);
    expect(existsSync(target)).toBe(false);

    // Not an archive at all.
    const junk = path.join(work, 'junk.tar.gz');
    await writeFile(junk, 'not a backup');
    const notOne = await cli(['restore', '--from', junk], { DATA_DIR: target });
    expect(notOne.code).toBe(1);
    expect(notOne.err).toContain('the archive is damaged or not gzip-compressed');
    expect((await readdir(work)).filter((name) => name.includes('restoring'))).toEqual([]);
  }, 120_000);

  it('refuses to restore into a DATA_DIR that is not empty, unless --force (which moves its contents aside)', async () => {
    const occupied = path.join(work, 'occupied');
    await mkdir(occupied);
    await writeFile(path.join(occupied, 'keep.txt'), 'mine');
    const refused = await cli(['restore', '--from', archive], { DATA_DIR: occupied });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`restore refused: DATA_DIR ${occupied} is not empty; restore into an empty or new directory`);
    expect(await readdir(occupied)).toEqual(['keep.txt']);

    const forced = await cli(['restore', '--from', archive, '--force'], { DATA_DIR: occupied });
    expect(forced.err).toBe('');
    expect(forced.code).toBe(0);
    const aside = /moved to (\S+) \(delete it/.exec(forced.out)?.[1];
    expect(aside).toBeDefined();
    expect(await readFile(path.join(aside!, 'keep.txt'), 'utf8')).toBe('mine');
    expect((await readdir(occupied)).sort()).toEqual(['files', 'jwt-secret', 'pglite']);
  }, 120_000);

  it('restores a backup made by an older release; the server applies the newer migrations when it starts', async () => {
    // An installation of the release before: the schema up to the migration before the newest.
    const older = path.join(work, 'older');
    const previous = MIGRATION_NAMES.at(-2)!;
    const db = await openDatabase({ kind: 'pglite', dataDir: older });
    await migrateUpTo(db, previous);
    await db.destroy();
    const olderArchive = path.join(work, 'older.tar.gz');
    // backup takes the database as it is (it does not migrate it first).
    const backup = await cli(['backup', '--to', olderArchive], { DATA_DIR: older });
    expect(backup.code, backup.err).toBe(0);
    expect(backup.out).toContain(`the database (schema ${previous})`);

    const target = path.join(work, 'upgraded');
    const restored = await cli(['restore', '--from', olderArchive], { DATA_DIR: target });
    expect(restored.code, restored.err).toBe(0);
    expect(restored.out).toContain(`The server applies 1 newer migration(s) when it starts (${MIGRATION_NAMES.at(-1)}).`);
    // Migrated at start (no demo data: only the schema matters here), then it serves.
    const server = await startOn(target, { SEED_DEMO: 'false' });
    expect(server.stdout() + server.stderr()).not.toMatch(/error/i);
    const migrate = await cli(['migrate'], { DATA_DIR: target });
    expect(migrate.out.trim()).toBe('the schema is up to date');
    await stop(server);
  }, 240_000);
});

describe.skipIf(testDbKind() !== 'postgres')('backup with DATABASE_URL (PostgreSQL)', () => {
  it('says to use pg_dump / pg_restore, archives the local files, and exits 3', async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'hb-bkpg-'));
    dirs.push(work);
    const fresh = await openFreshDatabase();
    await fresh.db.destroy();
    try {
      const env = { DATA_DIR: path.join(work, 'data'), DATABASE_URL: fresh.url! };
      const server = await startOn(env.DATA_DIR, { DATABASE_URL: fresh.url! });
      await stop(server);
      const archive = path.join(work, 'files.tar.gz');
      const backup = await cli(['backup', '--to', archive], env);
      expect(backup.code).toBe(3);
      expect(backup.err).toContain('pg_dump --format=custom --file=healthbook-$(date +%Y%m%d-%H%M).dump "$DATABASE_URL"');
      expect(backup.err).toContain('pg_restore --no-owner --exit-on-error --dbname="$DATABASE_URL"');
      expect(backup.err).toContain('Not in it: the database (pg_dump, above).');
      const listing = execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' });
      expect(listing).not.toContain('database/');
      expect(listing).toContain('files/organizations/healthbook-logo.svg');
      const manifest = JSON.parse(execFileSync('tar', ['-xzOf', archive, 'manifest.json'], { encoding: 'utf8' })) as { database: object };
      expect(manifest.database).toEqual({ kind: 'postgres', included: false });
    } finally {
      await fresh.drop();
    }
  }, 240_000);
});
