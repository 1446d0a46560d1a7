import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The text of a PDF as a reader's tool extracts it: poppler's pdftotext (Debian package
 * poppler-utils, which .ci/run installs), with its layout. Missing, the test fails and says so.
 */
export function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-pdf-'));
  const file = path.join(dir, 'file.pdf');
  try {
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('pdftotext is missing: install the Debian package poppler-utils (apt-get install poppler-utils)', { cause: err });
    throw err;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whitespace as pdftotext lays it out does not matter: compare words. */
export const pdfWords = (pdf: Buffer) => pdfText(pdf).replace(/\s+/g, ' ');
