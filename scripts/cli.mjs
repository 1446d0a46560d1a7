// `npm run cli -- <command>`: operator commands (see apps/server/src/cli.ts). Builds the server when needed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'apps/server/dist/cli.js');
if (!existsSync(cli)) {
  const built = spawnSync('npm', ['run', 'build', '-w', '@healthbook/server'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
