// Bundles the server (and the shared package it imports as source) into dist/, with npm packages external.
import { build } from 'esbuild';
import { cp, rm } from 'node:fs/promises';

await rm('dist', { recursive: true, force: true });
await build({
  // Worker threads' modules are bundles of their own beside server.js (lib/worker-pool.ts finds them there).
  entryPoints: { server: 'src/server.ts', cli: 'src/cli.ts', 'pdf.worker': 'src/modules/export/pdf.worker.ts', 'ccda.worker': 'src/modules/fhir/ccda.worker.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  packages: 'external',
  // @healthbook/shared is TypeScript source: bundle it in rather than import it at run time.
  alias: { '@healthbook/shared': '../../packages/shared/src/index.ts' },
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
// Seed assets are read from beside the bundle.
await cp('src/db/seed/assets', 'dist/assets', { recursive: true });
console.log('server built: apps/server/dist');
