// `npm start`: builds what is not built (or is older than its sources), then runs the one server process.
// A SIGINT or SIGTERM stops whichever runs: the build (all of it), or the server (gracefully).
// package.json runs this script with `exec`, so that npm's own signal forwarding reaches it directly.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { buildStale, root, stopBuild } from './build-stale.mjs';

let server;
let stoppedBy;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (server) {
      server.kill(signal);
    } else {
      stoppedBy ??= signal;
      stopBuild(signal);
    }
  });
}

const built = await buildStale();
if (stoppedBy) process.exit(128 + os.constants.signals[stoppedBy]);
if (built !== 0) process.exit(built);

server = spawn(process.execPath, ['--enable-source-maps', path.join(root, 'apps/server/dist/server.js')], { cwd: root, stdio: 'inherit' });
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
