import { parseArgs } from 'node:util';
import { startTestEhr, type TestEhrClient, type TestEhrPatient } from './test-ehr.js';

/**
 * Starts the test EHR as a process of its own, for the Playwright journey and the benchmark:
 *
 *   npx tsx apps/server/test/ehr/cli.ts --port 18999 --client-id app --redirect-uri http://127.0.0.1:3000/cb \
 *     [--client-secret S [--client-auth post]] [--resources 5000] [--access-token-ttl 3600]
 *
 * Each --client-id takes the --redirect-uri (and --client-secret, --client-auth) given after it and
 * before the next --client-id; a client without a secret is public, one with a secret authenticates
 * with client_secret_basic unless --client-auth post says client_secret_post. --resources sizes Alice's record (Bob
 * keeps the default). It prints one JSON line with origin and fhirBase, then serves until SIGTERM
 * or SIGINT.
 */

const { tokens } = parseArgs({
  options: {
    port: { type: 'string' },
    'client-id': { type: 'string', multiple: true },
    'client-secret': { type: 'string', multiple: true },
    'redirect-uri': { type: 'string', multiple: true },
    'client-auth': { type: 'string', multiple: true },
    resources: { type: 'string' },
    'access-token-ttl': { type: 'string' },
  },
  tokens: true,
  allowPositionals: false,
});

const clients: TestEhrClient[] = [];
let port = 0;
let resources: number | undefined;
let accessTokenTtlSeconds: number | undefined;
for (const token of tokens ?? []) {
  if (token.kind !== 'option') continue;
  const value = token.value ?? '';
  const last = clients.at(-1);
  switch (token.name) {
    case 'port':
      port = Number(value);
      break;
    case 'client-id':
      clients.push({ client_id: value, redirect_uris: [] });
      break;
    case 'redirect-uri':
      if (!last) throw new Error('--redirect-uri comes after its --client-id');
      last.redirect_uris.push(value);
      break;
    case 'client-secret':
      if (!last) throw new Error('--client-secret comes after its --client-id');
      last.client_secret = value;
      break;
    case 'client-auth':
      if (!last || (value !== 'post' && value !== 'basic')) throw new Error('--client-auth post|basic comes after its --client-id');
      last.token_endpoint_auth_method = value === 'post' ? 'client_secret_post' : 'client_secret_basic';
      break;
    case 'resources':
      resources = Number(value);
      break;
    case 'access-token-ttl':
      accessTokenTtlSeconds = Number(value);
      break;
  }
}
for (const client of clients) if (client.redirect_uris.length === 0) throw new Error(`client ${client.client_id} has no --redirect-uri`);

const patients: TestEhrPatient[] = [
  { patientId: 'alice-example', name: 'Alice Example', seed: 1, username: 'alice', password: 'alice-password', ...(resources ? { resources } : {}) },
  { patientId: 'bob-other', name: 'Bob Other', seed: 2, username: 'bob', password: 'bob-password' },
];
const ehr = await startTestEhr({ port, clients, patients, ...(accessTokenTtlSeconds ? { accessTokenTtlSeconds } : {}) });
process.stdout.write(`${JSON.stringify({ origin: ehr.origin, fhirBase: ehr.fhirBase, issuer: ehr.issuer, users: ehr.users })}\n`);

const stop = () => {
  ehr.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
