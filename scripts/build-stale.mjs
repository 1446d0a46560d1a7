// What `npm start` builds before it serves: each part whose output is missing or older than its sources.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
const rel = (...p) => path.join(root, ...p);

/** Newest modification time of the given sources (files, or folders walked whole), ignoring build output. */
function newest(sources) {
  let max = 0;
  const walk = (source) => {
    if (!existsSync(source)) return;
    const stat = statSync(source);
    if (!stat.isDirectory()) {
      max = Math.max(max, stat.mtimeMs);
      return;
    }
    for (const entry of readdirSync(source, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      walk(path.join(source, entry.name));
    }
  };
  sources.forEach(walk);
  return max;
}
const builtAt = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);
// A changed dependency (npm ci after a pull) makes both outputs stale too.
const shared = [rel('packages/shared/src'), rel('package-lock.json')];

const steps = [
  {
    part: 'web',
    name: 'web app',
    output: rel('apps/web/dist/index.html'),
    sources: [rel('apps/web/src'), rel('apps/web/public'), rel('apps/web/index.html'), rel('apps/web/vite.config.ts'), rel('apps/web/package.json'), ...shared],
    workspace: '@healthbook/web',
  },
  {
    part: 'server',
    name: 'server',
    output: rel('apps/server/dist/server.js'),
    sources: [rel('apps/server/src'), rel('apps/server/build.mjs'), rel('apps/server/package.json'), ...shared],
    workspace: '@healthbook/server',
  },
];

/** The build running now, if any. */
let current;

/**
 * Builds what is stale, one `npm run build -w <workspace>` at a time. Each build runs in its own
 * process group, so that stopBuild() ends all of it (npm, its shell, vite or esbuild), not only npm.
 * Answers 0, or the exit code of the build that failed.
 */
export async function buildStale({ parts = ['web', 'server'], log = console.log } = {}) {
  for (const step of steps) {
    if (!parts.includes(step.part) || builtAt(step.output) >= newest(step.sources)) continue;
    log(`Building the ${step.name}…`);
    const code = await new Promise((resolve, reject) => {
      current = spawn('npm', ['run', 'build', '-w', step.workspace], { cwd: root, stdio: 'inherit', detached: true });
      current.on('error', reject);
      current.on('exit', (status, signal) => resolve(status ?? 128 + (os.constants.signals[signal] ?? 0)));
    });
    current = undefined;
    if (code !== 0) {
      // A failed or stopped build may have written its output already: never take it for current.
      rmSync(step.output, { force: true });
      return code;
    }
  }
  return 0;
}

/** Stops the build in progress, its whole process tree. */
export function stopBuild(signal = 'SIGTERM') {
  if (!current?.pid) return;
  try {
    process.kill(-current.pid, signal);
  } catch {
    // already gone
  }
}
