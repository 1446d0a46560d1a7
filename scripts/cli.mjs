// `npm run cli -- <command>`: operator commands (see apps/server/src/cli.ts). Builds the server when stale.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildStale, root } from './build-stale.mjs';

const built = await buildStale({ parts: ['server'], log: (line) => console.error(line) });
if (built !== 0) process.exit(built);
const result = spawnSync(process.execPath, [path.join(root, 'apps/server/dist/cli.js'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
