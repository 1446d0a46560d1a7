import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, configWarnings, loadConfig } from './config';

const SECRET = 'x'.repeat(32);
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hb-config-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The error loadConfig throws for this environment. */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, ...env });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe('defaults', () => {
  it('serves on 0.0.0.0:8080 in development, with info logs and ./data resolved', () => {
    // JWT_SECRET is set so that nothing is written to ./data.
    const config = loadConfig({ JWT_SECRET: SECRET });
    expect(config).toMatchObject({
      env: 'development',
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      smtpUrl: undefined,
      mailFrom: 'HealthBook <no-reply@healthbook.example>',
      publicUrl: 'http://localhost:8080',
      jwtSecret: SECRET,
      logLevel: 'info',
      seedDemo: true,
      databasePoolSize: 20,
      databasePoolWaitMs: 10_000,
    });
    expect(path.isAbsolute(config.dataDir)).toBe(true);
  });

  it('seeds the demo data in development and tests, not in production', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, NODE_ENV: 'development' }).seedDemo).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, NODE_ENV: 'test' }).seedDemo).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, NODE_ENV: 'production' }).seedDemo).toBe(false);
  });

  it('lets SEED_DEMO override the default either way', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, NODE_ENV: 'production', SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, NODE_ENV: 'production', SEED_DEMO: 'yes' }).seedDemo).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, NODE_ENV: 'development', SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, NODE_ENV: 'development', SEED_DEMO: '0' }).seedDemo).toBe(false);
  });

  it('treats blank values as unset', () => {
    const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, PORT: '  ', SMTP_URL: '', LOG_LEVEL: '' });
    expect(config.port).toBe(8080);
    expect(config.smtpUrl).toBeUndefined();
    expect(config.logLevel).toBe('info');
  });
});

describe('values', () => {
  it('reads every variable', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '3000',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: 'postgresql://app@db.internal:5432/healthbook',
      REDIS_URL: 'redis://cache.internal:6379',
      SMTP_URL: 'smtps://user:pass@mail.internal:465',
      MAIL_FROM: 'Clinic <mail@clinic.example>',
      PUBLIC_URL: 'https://health.example/',
      JWT_SECRET: SECRET,
      LOG_LEVEL: 'warn',
      DATABASE_POOL_SIZE: '40',
      DATABASE_POOL_WAIT_MS: '15000',
    });
    expect(config).toMatchObject({
      env: 'production',
      port: 3000,
      host: '127.0.0.1',
      dataDir: dir,
      databaseUrl: 'postgresql://app@db.internal:5432/healthbook',
      redisUrl: 'redis://cache.internal:6379',
      smtpUrl: 'smtps://user:pass@mail.internal:465',
      mailFrom: 'Clinic <mail@clinic.example>',
      publicUrl: 'https://health.example',
      logLevel: 'warn',
      seedDemo: false,
      databasePoolSize: 40,
      databasePoolWaitMs: 15_000,
    });
  });

  it('derives the public URL from PORT when PUBLIC_URL is unset', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, PORT: '9090' }).publicUrl).toBe('http://localhost:9090');
  });

  it('resolves a relative DATA_DIR to an absolute path', () => {
    const config = loadConfig({ DATA_DIR: 'some/relative/dir', JWT_SECRET: SECRET });
    expect(config.dataDir).toBe(path.resolve('some/relative/dir'));
  });

  it('applies overrides after the environment', () => {
    const config = loadConfig({ DATA_DIR: dir, PORT: '3000' }, { port: 1234, jwtSecret: 'override' });
    expect(config.port).toBe(1234);
    expect(config.jwtSecret).toBe('override');
    expect(existsSync(path.join(dir, 'jwt-secret'))).toBe(false);
  });
});

describe('invalid values throw a ConfigError naming the variable', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_POOL_SIZE', 'many'],
    ['DATABASE_POOL_WAIT_MS', '10'],
    ['DATABASE_URL', 'not a url'],
    ['REDIS_URL', 'http://cache'],
    ['SMTP_URL', 'http://x'],
    ['PUBLIC_URL', 'ftp://health.example'],
    ['SEED_DEMO', 'maybe'],
    ['JWT_SECRET', 'too-short'],
    ['NODE_ENV', 'staging'],
    ['LOG_LEVEL', 'loud'],
  ])('%s=%s', (name, value) => {
    const err = configError({ [name]: value });
    expect(err.name).toBe('ConfigError');
    expect(err.message).toMatch(new RegExp(`^\\s+${name}: `, 'm'));
    // Only the bad variable is named.
    expect(err.message.split('\n').filter((l) => /^\s+\w+: /.test(l))).toHaveLength(1);
  });

  it('says what is expected', () => {
    expect(configError({ JWT_SECRET: 'short' }).message).toContain('JWT_SECRET: must be at least 32 characters');
    expect(configError({ SMTP_URL: 'http://x' }).message).toContain('SMTP_URL: must be a URL starting with smtp:// or smtps://');
    expect(configError({ SEED_DEMO: 'maybe' }).message).toContain('SEED_DEMO: must be true or false');
  });

  it('lists every bad variable at once', () => {
    const err = configError({ PORT: 'abc', DATABASE_URL: 'mysql://x', SEED_DEMO: 'maybe' });
    expect(err.message).toMatch(/PORT: /);
    expect(err.message).toMatch(/DATABASE_URL: /);
    expect(err.message).toMatch(/SEED_DEMO: /);
  });

  it('does not echo the bad value (it may be a secret)', () => {
    const err = configError({ JWT_SECRET: 'hunter2-secret' });
    expect(err.message).not.toContain('hunter2-secret');
  });
});

describe('JWT secret', () => {
  it('is generated once and kept in DATA_DIR', () => {
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, 'jwt-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.jwtSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = loadConfig({ DATA_DIR: dir });
    expect(second.jwtSecret).toBe(first.jwtSecret);
  });

  it('is different for another DATA_DIR', () => {
    const other = mkdtempSync(path.join(tmpdir(), 'hb-config-'));
    try {
      expect(loadConfig({ DATA_DIR: other }).jwtSecret).not.toBe(loadConfig({ DATA_DIR: dir }).jwtSecret);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('creates DATA_DIR when it does not exist yet', () => {
    const nested = path.join(dir, 'a', 'b');
    const config = loadConfig({ DATA_DIR: nested });
    expect(readFileSync(path.join(nested, 'jwt-secret'), 'utf8').trim()).toBe(config.jwtSecret);
  });

  it('comes from JWT_SECRET when set, and nothing is written', () => {
    const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET });
    expect(config.jwtSecret).toBe(SECRET);
    expect(existsSync(path.join(dir, 'jwt-secret'))).toBe(false);
  });
});

describe('the symptom checker', () => {
  it('is the built-in one by default; SYMPTOM_CHECKER=http takes its URL and timeout', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).symptomChecker).toEqual({ kind: 'builtin' });
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, SYMPTOM_CHECKER: 'http', SYMPTOM_CHECKER_URL: 'https://triage.example/assess' }).symptomChecker).toEqual({
      kind: 'http',
      url: 'https://triage.example/assess',
      timeoutMs: 5000,
    });
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, SYMPTOM_CHECKER: 'http', SYMPTOM_CHECKER_URL: 'http://127.0.0.1:9/x', SYMPTOM_CHECKER_TIMEOUT_MS: '800' }).symptomChecker).toMatchObject({ timeoutMs: 800 });
  });

  it('refuses an unknown checker, http without a URL, and a URL that is not http(s)', () => {
    expect(configError({ SYMPTOM_CHECKER: 'isabel' }).message).toContain('SYMPTOM_CHECKER: must be builtin or http');
    expect(configError({ SYMPTOM_CHECKER: 'http' }).message).toContain('SYMPTOM_CHECKER_URL: is needed with SYMPTOM_CHECKER=http');
    expect(configError({ SYMPTOM_CHECKER: 'http', SYMPTOM_CHECKER_URL: 'ftp://x' }).message).toContain('SYMPTOM_CHECKER_URL: must be a URL starting with http:// or https://');
  });
});

describe('video visits: TURN_URLS and TURN_SECRET', () => {
  it('is peer to peer only by default; takes STUN and TURN URLs separated by commas, with the shared secret', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).turn).toEqual({ urls: [], secret: undefined });
    const turn = loadConfig({
      DATA_DIR: dir,
      JWT_SECRET: SECRET,
      TURN_URLS: 'stun:turn.example.org:3478, turn:turn.example.org:3478?transport=udp,turns:turn.example.org:5349',
      TURN_SECRET: 'a-secret-shared-with-coturn',
    }).turn;
    expect(turn).toEqual({
      urls: ['stun:turn.example.org:3478', 'turn:turn.example.org:3478?transport=udp', 'turns:turn.example.org:5349'],
      secret: 'a-secret-shared-with-coturn',
    });
    // STUN alone needs no secret.
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, TURN_URLS: 'stun:stun.example.org' }).turn.urls).toEqual(['stun:stun.example.org']);
  });

  it('refuses what is not a STUN or TURN URL, a relay without its secret, and a short secret', () => {
    expect(configError({ TURN_URLS: 'https://turn.example.org' }).message).toContain('TURN_URLS: must be stun:, turn: or turns: URLs');
    expect(configError({ TURN_URLS: 'turn:turn.example.org:3478?transport=sctp' }).message).toContain('not one: turn:turn.example.org:3478?transport=sctp');
    expect(configError({ TURN_URLS: 'turn:turn.example.org' }).message).toContain('TURN_SECRET: is needed with turn: or turns: URLs');
    expect(configError({ TURN_URLS: 'turn:turn.example.org', TURN_SECRET: 'short' }).message).toContain('TURN_SECRET: must be at least 16 characters');
  });

  it('warns in production when no relay is set: calls connect only where peer to peer is allowed', () => {
    const none = { urls: [], secret: undefined };
    const relay = { urls: ['turn:turn.example.org'], secret: 'a-secret-shared-with-coturn' };
    expect(configWarnings({ env: 'production', smtpUrl: 'smtp://mail', turn: none })).toEqual([expect.stringContaining('TURN_URLS has no turn: server in production')]);
    expect(configWarnings({ env: 'production', smtpUrl: 'smtp://mail', turn: { urls: ['stun:stun.example.org'], secret: undefined } })).toHaveLength(1);
    expect(configWarnings({ env: 'production', smtpUrl: 'smtp://mail', turn: relay })).toEqual([]);
    expect(configWarnings({ env: 'development', smtpUrl: undefined, turn: none })).toEqual([]);
  });
});

describe('placeholders of .env.example in production', () => {
  const PLACEHOLDERS = {
    JWT_SECRET: 'change-me-jwt-secret-at-least-32-characters',
    DATABASE_URL: 'postgres://healthbook:change-me-postgres-password@postgres:5432/healthbook',
    REDIS_URL: 'redis://:change-me-redis-password@redis:6379/0',
    STORAGE_URL: 's3://healthbook-app:change-me-s3-secret-key@healthbook-files?endpoint=http://minio:9000&path_style=true',
    SMTP_URL: 'smtps://healthbook:change-me-smtp-password@smtp.example.org:465',
  };

  it('refuses them in one line naming the variables, never their values', () => {
    const err = configError({ NODE_ENV: 'production', ...PLACEHOLDERS });
    expect(err.message).toBe(
      'Refusing to start in production: DATABASE_URL, JWT_SECRET, REDIS_URL, SMTP_URL, STORAGE_URL still hold a placeholder ("change-me…") from .env.example; put real secrets in .env (for example openssl rand -hex 32).',
    );
    expect(err.message).not.toContain('password');
    expect(err.message).not.toContain('secret-key');
  });

  it('refuses one left behind, also percent-encoded or in capitals', () => {
    expect(configError({ NODE_ENV: 'production', JWT_SECRET: 'CHANGE_ME_0123456789abcdef0123456789abcdef' }).message).toMatch(/^Refusing to start in production: JWT_SECRET still holds a placeholder/);
    expect(configError({ NODE_ENV: 'production', REDIS_URL: 'redis://:change%2Dme@redis:6379' }).message).toContain(': REDIS_URL still holds');
    expect(configError({ NODE_ENV: 'production', METRICS_TOKEN: 'change-me-metrics-token-of-32-characters' }).message).toContain(': METRICS_TOKEN still holds');
    expect(configError({ NODE_ENV: 'production', TURN_URLS: 'turn:turn.example.org', TURN_SECRET: 'change-me-turn-secret' }).message).toContain(': TURN_SECRET still holds');
  });

  it('takes only the placeholder for one, not words that contain it', () => {
    expect(() => loadConfig({ DATA_DIR: dir, NODE_ENV: 'production', JWT_SECRET: SECRET, MAIL_FROM: 'Exchange Medical <no-reply@exchange-me.example>' })).not.toThrow();
    expect(() => loadConfig({ DATA_DIR: dir, NODE_ENV: 'production', JWT_SECRET: 'changemetrics-0123456789abcdef0123456789' })).not.toThrow();
    expect(configError({ NODE_ENV: 'production', JWT_SECRET: 'please-changeme-0123456789abcdef0123456789' }).message).toContain(': JWT_SECRET still holds');
  });

  it('accepts real values in production, and the placeholders outside production', () => {
    expect(() => loadConfig({ DATA_DIR: dir, NODE_ENV: 'production', JWT_SECRET: SECRET, DATABASE_URL: 'postgres://healthbook:4f1d9c0b7e@postgres:5432/healthbook' })).not.toThrow();
    expect(() => loadConfig({ DATA_DIR: dir, NODE_ENV: 'development', ...PLACEHOLDERS })).not.toThrow();
    expect(() => loadConfig({ DATA_DIR: dir, NODE_ENV: 'test', ...PLACEHOLDERS })).not.toThrow();
  });

  it('reports a malformed variable first, as before', () => {
    const err = configError({ NODE_ENV: 'production', JWT_SECRET: PLACEHOLDERS.JWT_SECRET, PORT: 'abc' });
    expect(err.message).toMatch(/^Invalid configuration:\n\s+PORT: /);
  });
});

describe('TRUST_PROXY', () => {
  it('trusts no proxy by default', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).trustProxy).toBe(false);
  });

  it('takes a number of hops, or addresses and CIDR ranges', () => {
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']);
  });

  it.each(['0', '11', 'true', 'proxy.internal', '10.0.0.0/33', '10.0.0.1/8/1', ',', '1.2.3.4/x'])('refuses %s', (value) => {
    expect(configError({ TRUST_PROXY: value }).message).toContain('TRUST_PROXY: must be a number of proxies from 1 to 10, or addresses and CIDR ranges separated by commas');
  });
});
