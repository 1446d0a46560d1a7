import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHAT_SOCKET_PATH, VISIT_SOCKET_PATH } from '@healthbook/shared';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError, loadConfig } from '../src/config';

/**
 * The container deployment (compose.yaml, .env.example, deploy/nginx.conf, Dockerfile): valid by the
 * Compose specification's own schema (deploy/compose-spec/compose-spec.json), two application
 * processes of one image behind the proxy, coturn for the video visits, a health check on every
 * long-running service, and no secret written in the file: each comes from .env, without a default,
 * and the server in production refuses the example's placeholders.
 */

const repo = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(repo, file), 'utf8');

type Service = {
  image?: string;
  build?: unknown;
  environment?: Record<string, string | number | boolean | null>;
  healthcheck?: { test?: string[] | string; disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
  restart?: string;
  volumes?: string[];
  ports?: string[];
  network_mode?: string;
  command?: string[] | string;
  cap_add?: string[];
  cap_drop?: string[];
};
type ComposeFile = { services: Record<string, Service>; volumes?: Record<string, unknown> };

const composeText = read('compose.yaml');
const compose = parse(composeText, { merge: true }) as ComposeFile;

/** .env as Compose reads it: KEY=VALUE lines, # comments, values optionally in quotes. */
function parseEnvFile(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2]!.trim();
    if (/^".*"$/.test(value) || /^'.*'$/.test(value)) value = value.slice(1, -1);
    vars[m[1]!] = value;
  }
  return vars;
}
const example = parseEnvFile(read('.env.example'));

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g;

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}; $$ is a literal $. */
function interpolate(value: string, vars: Record<string, string>): string {
  return value
    .split('$$')
    .map((part) =>
      part.replace(REFERENCE, (_all, name: string, op: string | undefined, arg: string) => {
        const v = vars[name];
        const unset = op?.startsWith(':') ? !v : v === undefined;
        if (op?.endsWith('?') && unset) throw new Error(`${name}: ${arg}`);
        if (op?.endsWith('-') && unset) return arg;
        return v ?? '';
      }),
    )
    .join('$');
}
/** Every string in a parsed YAML document, with its path. */
function strings(node: unknown, at: string[] = []): Array<{ at: string; value: string }> {
  if (typeof node === 'string') return [{ at: at.join('.'), value: node }];
  if (Array.isArray(node)) return node.flatMap((n, i) => strings(n, [...at, String(i)]));
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => strings(v, [...at, k]));
  return [];
}
const mapStrings = (node: unknown, f: (s: string) => string): unknown => {
  if (typeof node === 'string') return f(node);
  if (Array.isArray(node)) return node.map((n) => mapStrings(n, f));
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, mapStrings(v, f)]));
  return node;
};

const { $schema: draft, ...schema } = JSON.parse(read('deploy/compose-spec/compose-spec.json')) as { $schema: string };
// Draft 07, Ajv's own; the file names it by its https address, which Ajv does not know by that name.
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(schema);
const errorsOf = (doc: unknown) => (validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`));

/** The services that run the application: built from this repository's Dockerfile. */
const appServices = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);
const SECRET_NAME = /PASSWORD|SECRET|TOKEN|AUTH/;

describe('compose.yaml', () => {
  it('is valid by the Compose specification schema, as written and once .env.example is put in', () => {
    expect(draft).toMatch(/^https?:\/\/json-schema.org\/draft-07\/schema#?$/);
    expect(errorsOf(compose)).toEqual([]);
    expect(errorsOf(mapStrings(compose, (s) => interpolate(s, example)))).toEqual([]);
  });

  it('the schema is the real one: it refuses what Compose refuses', () => {
    expect(errorsOf({ services: { app: { image: 'x', healthcheck: { test: ['CMD', 'true'], interval: 15 } } } })).not.toEqual([]);
    expect(errorsOf({ services: { app: { image: 'x', restart_policy: 'always' } } })).not.toEqual([]);
    expect(errorsOf({ services: { app: { image: 'x', depends_on: { db: { condition: 'service_ready' } } } } })).not.toEqual([]);
  });

  it('runs two application processes of one image, each with its own data volume, on PostgreSQL, Redis and the S3 store', () => {
    expect(appServices.map(([name]) => name)).toEqual(['app1', 'app2']);
    const images = new Set(appServices.map(([, s]) => s.image));
    expect(images.size).toBe(1);
    const volumes = appServices.map(([, s]) => s.volumes?.find((v) => v.endsWith(':/data')));
    expect(new Set(volumes).size).toBe(2);
    for (const [, s] of appServices) {
      expect(s.environment).toMatchObject({ NODE_ENV: 'production', TRUST_PROXY: '1' });
      expect(String(s.environment?.DATABASE_URL)).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(String(s.environment?.REDIS_URL)).toMatch(/^redis:\/\/.*@redis:6379/);
      expect(String(s.environment?.STORAGE_URL)).toMatch(/^s3:\/\/.*endpoint=http:\/\/minio:9000.*path_style=true/);
      expect(s.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        'minio-init': { condition: 'service_completed_successfully' },
      });
      // Nothing but the proxy is reachable from outside.
      expect(s.ports).toBeUndefined();
      // Video visits relay through the coturn service, with the secret it shares.
      expect(s.environment).toMatchObject({ TURN_URLS: '${TURN_URLS:?set TURN_URLS in .env}', TURN_SECRET: '${TURN_SECRET:?set TURN_SECRET in .env}' });
    }
    expect(compose.services.postgres?.image).toMatch(/^postgres:16\b/);
    expect(compose.services.redis?.image).toMatch(/^redis:7\b/);
    expect(compose.services.minio?.image).toMatch(/minio\/minio:/);
    expect(String(compose.services['minio-init']?.environment?.S3_BUCKET)).toBe('${S3_BUCKET:?set S3_BUCKET in .env}');
    expect(Object.entries(compose.services).filter(([, s]) => s.ports?.length).map(([name]) => name)).toEqual(['proxy']);
  });

  it('runs coturn, pinned, on the host network, with the TURN REST secret of the applications and no private peers', () => {
    const coturn = compose.services.coturn!;
    expect(coturn.image).toMatch(/^coturn\/coturn:\d+\.\d+\.\d+-r\d+$/);
    expect(coturn.network_mode).toBe('host');
    expect(coturn.environment?.TURN_SECRET).toBe('${TURN_SECRET:?set TURN_SECRET in .env}');
    const command = [coturn.command].flat().join(' ');
    for (const option of ['--use-auth-secret', '--static-auth-secret="$$TURN_SECRET"', '--realm="$$TURN_REALM"', '--no-cli', '--listening-port=3478', '--tls-listening-port=5349', '--no-multicast-peers']) {
      expect(command).toContain(option);
    }
    for (const range of ['10.0.0.0-10.255.255.255', '172.16.0.0-172.31.255.255', '192.168.0.0-192.168.255.255', '127.0.0.0-127.255.255.255', '169.254.0.0-169.254.255.255']) {
      expect(command).toContain(`--denied-peer-ip=${range}`);
    }
    // The image grants turnserver a file capability: without it in the bounding set, it would not start.
    expect(coturn).toMatchObject({ cap_drop: ['ALL'], cap_add: ['NET_BIND_SERVICE'] });
    // The app's TURN_URLS, as .env.example has them, are valid and name the ports coturn listens on.
    expect(example.TURN_URLS!.split(',').map((u) => /:(\d+)\?/.exec(u)?.[1])).toEqual(['3478', '3478', '5349']);
  });

  it('has a health check on every long-running service; the applications’ asks /api/health/ready', () => {
    for (const [name, s] of Object.entries(compose.services)) {
      if (s.restart === 'no') continue; // one-shot (the bucket's creation)
      expect(s.healthcheck?.test, name).toBeDefined();
      expect(s.healthcheck?.disable, name).not.toBe(true);
    }
    for (const [, s] of appServices) expect(JSON.stringify(s.healthcheck?.test)).toContain('/api/health/ready');
    expect(compose.services.proxy?.depends_on).toEqual({ app1: { condition: 'service_healthy' }, app2: { condition: 'service_healthy' } });
  });

  it('writes no secret: credentials in URLs and secret-named variables come from .env, without a default', () => {
    const all = strings(compose.services);
    // user:password@ in any URL is made of references only.
    const userinfos = all.flatMap(({ at, value }) => [...value.matchAll(/[a-z][a-z0-9+.-]*:\/\/([^@/]*)@/gi)].map((m) => ({ at, userinfo: m[1]! })));
    expect(userinfos.length).toBeGreaterThanOrEqual(3);
    for (const { at, userinfo } of userinfos) expect(userinfo.replace(REFERENCE, '').replace(/:/g, ''), at).toBe('');
    // Variables named like secrets hold one reference and nothing else.
    const secretVars = Object.values(compose.services).flatMap((s) => Object.entries(s.environment ?? {}).filter(([name]) => SECRET_NAME.test(name)));
    expect(secretVars.length).toBeGreaterThanOrEqual(6);
    for (const [name, value] of secretVars) expect(String(value), name).toMatch(/^\$\{[A-Z0-9_]+:\?[^}]*\}$/);
    // A command's argument after a password option is a reference too (redis-server --requirepass …).
    const commands = Object.values(compose.services).flatMap((s) => (Array.isArray((s as { command?: unknown }).command) ? [(s as { command: string[] }).command] : []));
    const afterSecretOptions = commands.flatMap((c) => c.filter((_arg, i) => i > 0 && /^--?[\w-]*(pass|secret|token)/i.test(c[i - 1]!)));
    expect(afterSecretOptions).toEqual(['${REDIS_PASSWORD:?set REDIS_PASSWORD in .env}']);
    // No secret has a default anywhere in the file.
    for (const m of composeText.matchAll(REFERENCE)) {
      if (SECRET_NAME.test(m[1]!)) expect(m[2], m[0]).toBe(':?');
    }
  });

  it('.env.example names every variable the file needs, with placeholders the server refuses in production', () => {
    const referenced = new Set([...composeText.split('$$').join('').matchAll(REFERENCE)].map((m) => m[1]!));
    for (const name of referenced) expect(Object.keys(example), name).toContain(name);
    const secrets = Object.keys(example).filter((name) => SECRET_NAME.test(name) || /URL$/.test(name) && /:\/\/[^@/]*:[^@/]*@/.test(example[name]!));
    expect(secrets.sort()).toEqual(['JWT_SECRET', 'MINIO_ROOT_PASSWORD', 'POSTGRES_PASSWORD', 'REDIS_PASSWORD', 'S3_SECRET_KEY', 'SMTP_URL', 'TURN_SECRET']);
    for (const name of secrets) expect(example[name], name).toMatch(/change-me/);

    const dir = mkdtempSync(path.join(tmpdir(), 'hb-compose-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const env = mapStrings(compose.services.app1!.environment, (s) => interpolate(s, example)) as Record<string, string>;
    let error: unknown;
    try {
      loadConfig({ ...env, DATA_DIR: dir });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^Refusing to start in production: DATABASE_URL, JWT_SECRET, REDIS_URL, SMTP_URL, STORAGE_URL, TURN_SECRET still hold a placeholder/);
    expect((error as Error).message).not.toContain('\n');

    // With real values the same environment is a valid production configuration.
    const real = Object.fromEntries(Object.entries(example).map(([k, v]) => [k, v.replace(/change-me[-\w]*/g, `${k.toLowerCase().replace(/_/g, '')}-4f1d9c0b7e2a6d3c8b5a9f0e1d2c3b4a5f6e`)]));
    const config = loadConfig({ ...(mapStrings(compose.services.app1!.environment, (s) => interpolate(s, real)) as Record<string, string>), DATA_DIR: dir });
    expect(config).toMatchObject({ env: 'production', trustProxy: 1, redisUrl: expect.stringMatching(/^redis:\/\/:redispassword-[0-9a-f]+@redis:6379\/0$/) });
    expect(config.turn.urls).toHaveLength(3);
    expect(config.turn.secret).toMatch(/^turnsecret-/);
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
  });
});

describe('deploy/nginx.conf', () => {
  const nginx = read('deploy/nginx.conf');

  it('is the proxy’s configuration and sends to every application service', () => {
    expect(compose.services.proxy?.volumes).toContain('./deploy/nginx.conf:/etc/nginx/nginx.conf:ro');
    const upstream = /upstream healthbook \{([^}]*)\}/.exec(nginx)?.[1] ?? '';
    const servers = [...upstream.matchAll(/^\s*server (\S+)/gm)].map((m) => m[1]);
    expect(servers).toEqual(appServices.map(([name]) => `${name}:8080`));
  });

  it.each([CHAT_SOCKET_PATH, VISIT_SOCKET_PATH])('passes the WebSocket upgrade on %s, with the forwarded headers', (socketPath) => {
    const block = new RegExp(`location ${socketPath.replace(/\//g, '\\/')} \\{([^}]*)\\}`).exec(nginx)?.[1] ?? '';
    expect(block).toContain('proxy_pass http://healthbook;');
    expect(block).toContain('proxy_set_header Upgrade $http_upgrade;');
    expect(block).toContain('proxy_set_header Connection $connection_upgrade;');
    // A location with its own proxy_set_header inherits none from the server block.
    for (const header of ['Host $host', 'X-Forwarded-For $remote_addr', 'X-Forwarded-Proto $scheme']) expect(block).toContain(`proxy_set_header ${header};`);
    expect(nginx).toMatch(/map \$http_upgrade \$connection_upgrade \{\s*default upgrade;/);
  });

  it('replaces X-Forwarded-For rather than appending to it (TRUST_PROXY=1 believes one hop)', () => {
    expect(nginx).not.toContain('$proxy_add_x_forwarded_for');
    expect(nginx).toContain('client_max_body_size 25m;');
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('is multi-stage on an ARG base, runs as a non-root user with DATA_DIR a volume and a readiness check', () => {
    expect(dockerfile).toMatch(/^ARG BASE=node:20-bookworm-slim$/m);
    expect(dockerfile.match(/^FROM \$\{BASE\} AS \w+$/gm)).toEqual(['FROM ${BASE} AS build', 'FROM ${BASE} AS runtime']);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    const user = /^USER (\S+)$/m.exec(dockerfile)?.[1];
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(dockerfile).toMatch(/DATA_DIR=\/data/);
    expect(dockerfile).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/api\/health\/ready/m);
    // The server bundle, not the sources through tsx: no dev dependency at run time.
    expect(dockerfile).toMatch(/^CMD \["node", "--enable-source-maps", "apps\/server\/dist\/server.js"\]$/m);
  });
});
