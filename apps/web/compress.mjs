// Writes .gz and .br beside each built text asset, so the server sends them precompressed.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const root = path.resolve(import.meta.dirname, 'dist');
const TEXT = /\.(js|css|html|svg|json|txt|map)$/;
let count = 0;
async function walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) await walk(file);
    else if (TEXT.test(entry.name) && !file.endsWith('.map')) {
      const data = await readFile(file);
      if (data.length < 1024) continue;
      await writeFile(`${file}.gz`, gzipSync(data, { level: 9 }));
      await writeFile(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      count++;
    }
  }
}
await walk(root);
console.log(`compressed ${count} files`);
