// What `npm run bench` loads, in order. Add a route with one entry.
//
//   name       label in the table and key in .bench/results.json (unique)
//   server     'bare' (baseline JSON app), 'select' (baseline PK-select app) or 'app' (the real server)
//   method     default 'GET'
//   path       request path on that server
//   headers    optional static headers
//   body       optional request body (string or object; an object is sent as JSON)
//   prepare    optional async (baseUrl) => headers, run once before the warm-up
//              (e.g. sign in and return { authorization: `Bearer ${token}` })
//   baseline   optional name of the target to compare req/s with
//   minRatio   optional: PASS when req/s >= minRatio x the baseline's req/s, else FAIL
//   maxP99Ms   optional: PASS when the 99th percentile latency is at most this, else FAIL
//   connections optional: concurrent connections for this target (default BENCH_CONNECTIONS)
//
// Example for later issues (demo logins are seeded with SEED_DEMO=true):
//   { name: 'login', server: 'app', method: 'POST', path: '/api/v1/login/',
//     body: { username: 'patient@healthbook.example', password: '...' }, baseline: 'bare PK select' },
//   { name: 'me', server: 'app', path: '/api/v1/me/', prepare: signIn, baseline: 'bare PK select' },

/** @typedef {{ name: string, server: 'bare' | 'select' | 'app', method?: string, path: string,
 *   headers?: Record<string, string>, body?: string | object,
 *   prepare?: (baseUrl: string) => Promise<Record<string, string> | undefined>,
 *   baseline?: string, minRatio?: number, maxP99Ms?: number, connections?: number }} BenchTarget */

/** @type {BenchTarget[]} */
export const targets = [
  { name: 'bare JSON', server: 'bare', path: '/bare' },
  { name: 'bare PK select', server: 'select', path: '/bare-select' },
  {
    // Every page's first call, answered from memory (invalidated across processes on change).
    name: 'organisation lookup',
    server: 'app',
    path: '/api/v1/organization_detail_by_name/healthbook',
    baseline: 'bare JSON',
    minRatio: 0.6,
  },
  { name: 'ping', server: 'app', method: 'HEAD', path: '/api/ping', baseline: 'bare JSON' },
  {
    // Every request verifies argon2id (m = 19 MiB, t = 2): slow on purpose; reported, not targeted.
    // Four connections: one account admits five sign-ins in flight at once (the lockout counts
    // each try before checking it), and a hundred at once would measure the 429s instead.
    connections: 4,
    name: 'sign-in',
    server: 'app',
    method: 'POST',
    path: '/api/v1/login/',
    body: { email: 'patient@healthbook.example', password: 'Healthbook#2026', org: 'healthbook' },
    baseline: 'bare PK select',
  },
  { name: 'current user', server: 'app', path: '/api/v1/me/', prepare: signIn, baseline: 'bare PK select', minRatio: 0.6 },
  {
    // The bench database is fresh and seeded: healthbook is organisation 1.
    name: 'features',
    server: 'app',
    method: 'POST',
    path: '/api/v1/features/get-features/',
    body: { organization_id: 1 },
    prepare: signIn,
    baseline: 'bare PK select',
    minRatio: 0.6,
    maxP99Ms: 50,
  },
  {
    // The demo patient with 1,000 more records (600 conditions among them): a page of 20 of one
    // category, newest first, with the total count, through the patient policy.
    name: 'records list',
    server: 'app',
    path: '/api/v1/hr/condition/?page_size=20',
    prepare: withThousandRecords,
    baseline: 'bare PK select',
    minRatio: 0.5,
    maxP99Ms: 50,
  },
  {
    // Each request writes a record, its first version and its search text in one transaction.
    name: 'record create',
    server: 'app',
    method: 'POST',
    path: '/api/v1/hr/symptom/',
    body: { name: 'Headache', start_date: '2026-01-15', start_date_part: 'day', intensity: 4 },
    prepare: signIn,
    baseline: 'bare PK select',
  },
];

const THOUSAND = 1000;
let seeded;
/** Signs in as the demo patient and, once, gives them 1,000 more records through the API (20 at a time). */
async function withThousandRecords(baseUrl) {
  const headers = await signIn(baseUrl);
  seeded ??= (async () => {
    const body = (i) =>
      i % 5 < 3
        ? ['condition', { name: `Condition ${i}`, start_date: `20${String(10 + (i % 16)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`, intensity: 1 + (i % 10) }]
        : ['symptom', { name: `Symptom ${i}`, start_date: `2025-0${1 + (i % 9)}-2${i % 8}`, start_date_part: 'day' }];
    for (let start = 0; start < THOUSAND; start += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, k) => {
          const [category, record] = body(start + k);
          const res = await fetch(`${baseUrl}/api/v1/hr/${category}/`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify(record),
          });
          if (res.status !== 201) throw new Error(`bench record ${start + k}: ${res.status} ${await res.text()}`);
        }),
      );
    }
  })();
  await seeded;
  return headers;
}

/** Signs in as the demo patient and answers the bearer header. */
async function signIn(baseUrl) {
  const res = await fetch(`${baseUrl}/api/v1/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'patient@healthbook.example', password: 'Healthbook#2026', org: 'healthbook' }),
  });
  if (!res.ok) throw new Error(`bench sign-in failed: ${res.status} ${await res.text()}`);
  const { access } = await res.json();
  return { authorization: `Bearer ${access}` };
}
