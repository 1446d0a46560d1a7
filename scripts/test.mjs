#!/usr/bin/env node
// `npm test`: every check, in phases, each timed. Lint and the type check share the first phase
// (each keeps one core busy); then the unit and integration tests (vitest), the smoke test (the
// product started as README says), the web app's JavaScript budget and the browser journeys. A failed phase stops the run (after
// the first phase's two both finish, so both report). At the end: each phase's time, and the total.
import { spawn } from 'node:child_process';

const phases = [
  [
    ['lint', 'npm', ['run', 'lint']],
    ['typecheck', 'npm', ['run', 'typecheck']],
  ],
  [['unit and integration', 'npm', ['run', 'test:unit']]],
  [['smoke', 'npm', ['run', 'test:smoke']]],
  // The web app's JavaScript per signed-in page, on the build the smoke step made (a second).
  [['bundle budget', 'npm', ['run', 'check-budget', '-w', '@healthbook/web']]],
  [['journeys', 'npm', ['run', 'test:e2e']]],
];

const times = [];
const children = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const c of children) c.kill(signal);
    process.exit(1);
  });
}

/** Runs one command with its output as it comes; answers its exit code and how long it took. */
function run(name, cmd, args) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit' });
    children.add(child);
    child.on('exit', (code, signal) => {
      children.delete(child);
      const seconds = (performance.now() - started) / 1000;
      times.push({ name, seconds, ok: code === 0 });
      console.log(`[test] ${code === 0 ? 'passed' : 'FAILED'}: ${name} (${seconds.toFixed(0)} s)`);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const started = performance.now();
let failed = false;
for (const phase of phases) {
  const codes = await Promise.all(phase.map(([name, cmd, args]) => run(name, cmd, args)));
  if (codes.some((code) => code !== 0)) {
    failed = true;
    break;
  }
}
const total = (performance.now() - started) / 1000;
console.log('\n[test] phase times');
for (const t of times) console.log(`[test]   ${t.name.padEnd(22)} ${t.seconds.toFixed(0).padStart(5)} s  ${t.ok ? 'passed' : 'FAILED'}`);
console.log(`[test]   ${'total'.padEnd(22)} ${total.toFixed(0).padStart(5)} s  ${failed ? 'FAILED' : 'passed'}`);
process.exit(failed ? 1 : 0);
