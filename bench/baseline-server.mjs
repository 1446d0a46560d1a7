// A baseline for `npm run bench`, run as its own process (forked with IPC by scripts/bench.mjs):
//   node bench/baseline-server.mjs bare     GET /bare         -> {"ok":true}
//   node bench/baseline-server.mjs select   GET /bare-select  -> one primary-key SELECT through a pg Pool (max 10)
// Listens on 127.0.0.1 (port from PORT, default any free port) and reports { port } to the parent.
import Fastify from 'fastify';
import pg from 'pg';

const mode = process.argv[2];
if (mode !== 'bare' && mode !== 'select') {
  console.error('usage: node bench/baseline-server.mjs bare|select');
  process.exit(2);
}

const app = Fastify({ logger: false });
let pool;

if (mode === 'bare') {
  app.get('/bare', async () => ({ ok: true }));
} else {
  if (!process.env.DATABASE_URL) {
    console.error('DATABASE_URL is required for the select baseline');
    process.exit(2);
  }
  // Same pool size as the app (apps/server/src/db/client.ts).
  pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  pool.on('error', () => undefined);
  app.get('/bare-select', async (_request, reply) => {
    const { rows } = await pool.query('select id, name, org_name from organizations where id = $1', [1]);
    if (rows.length === 0) return reply.code(404).send({ detail: 'Not found.' });
    return rows[0];
  });
  // Fail at start, not under load, if the database or the row is missing.
  const { rowCount } = await pool.query('select id from organizations where id = $1', [1]);
  if (rowCount !== 1) {
    console.error('organizations row with id 1 not found (is the database seeded?)');
    process.exit(1);
  }
}

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  try {
    await app.close();
    await pool?.end();
  } finally {
    process.exit(0);
  }
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
// The parent went away (crashed or was killed): do not linger.
process.on('disconnect', () => void stop());

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
if (process.send) process.send({ ready: true, port });
else console.log(`baseline ${mode} listening on http://127.0.0.1:${port}`);
