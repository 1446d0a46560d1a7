// `npm start`: builds what is not built (or is older than its sources), then runs the one server process.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const rel = (...p) => path.join(root, ...p);

/** Newest modification time under the given folders (sources), ignoring build output. */
function newest(dirs) {
  let max = 0;
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else max = Math.max(max, statSync(file).mtimeMs);
    }
  };
  dirs.forEach(walk);
  return max;
}
const builtAt = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);
const shared = rel('packages/shared/src');

const steps = [
  { name: 'web app', output: rel('apps/web/dist/index.html'), sources: [rel('apps/web/src'), rel('apps/web/index.html'), shared], workspace: '@healthbook/web' },
  { name: 'server', output: rel('apps/server/dist/server.js'), sources: [rel('apps/server/src'), shared], workspace: '@healthbook/server' },
];
for (const step of steps) {
  if (builtAt(step.output) >= newest(step.sources)) continue;
  console.log(`Building the ${step.name}…`);
  const result = spawnSync('npm', ['run', 'build', '-w', step.workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const child = spawn(process.execPath, ['--enable-source-maps', rel('apps/server/dist/server.js')], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
