// Browser journeys: make sure Chromium exists and the build is current, then run Playwright.
// Playwright starts the product the way users do (e2e/start-server.ts runs scripts/start.mjs), and
// start.mjs builds only what is stale; building here first keeps that out of Playwright's start-up
// start-up timeout (in `npm test` the smoke step has built already, so this finds nothing to do).
import { spawnSync } from 'node:child_process';
import { buildStale, root, stopBuild } from './build-stale.mjs';

const run = (cmd, args) => {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run('bash', ['scripts/ensure-chromium.sh']);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    stopBuild(signal);
    process.exit(1);
  });
}
const built = await buildStale();
if (built !== 0) process.exit(built);
run('npx', ['playwright', 'test', '-c', 'apps/web/playwright.config.ts', ...process.argv.slice(2)]);
