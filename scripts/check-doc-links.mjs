#!/usr/bin/env node
// Checks the links between the documentation's pages: every relative link and image of README.md
// and docs/**/*.md must name a file that exists and, with a #fragment, a heading of that page
// (GitHub's anchors). Prints each broken link with its file and line; exit code 1 when there is one.
// Usage: node scripts/check-doc-links.mjs [--allow-missing docs/operating/deployment.md ...]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const allowMissing = new Set();
for (let i = 0; i < args.length; i++) if (args[i] === '--allow-missing' && args[i + 1]) allowMissing.add(path.resolve(ROOT, args[++i]));

function markdownFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

/** The text outside fenced code blocks and inline code, line by line (code is never a link). */
function proseLines(text) {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '``');
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2… */
function anchorsOf(file) {
  const seen = new Map();
  const anchors = new Set();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]
      .replace(/<[^>]+>/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

const files = [path.join(ROOT, 'README.md'), ...markdownFiles(path.join(ROOT, 'docs'))];
const LINK = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|\b(?:href|src)="([^"]+)"/g;
const broken = [];
let checked = 0;

for (const file of files) {
  const lines = proseLines(readFileSync(file, 'utf8'));
  lines.forEach((line, index) => {
    for (const match of line.matchAll(LINK)) {
      const target = match[1] ?? match[2];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      checked++;
      const [rawPath, fragment] = target.split('#');
      const resolved = rawPath ? path.resolve(path.dirname(file), decodeURIComponent(rawPath)) : file;
      const where = `${path.relative(ROOT, file)}:${index + 1}`;
      if (!existsSync(resolved)) {
        if (!allowMissing.has(resolved)) broken.push(`${where}: ${target} (no such file)`);
        continue;
      }
      if (fragment && statSync(resolved).isFile() && resolved.endsWith('.md') && !anchorsOf(resolved).has(fragment)) {
        broken.push(`${where}: ${target} (no heading #${fragment} in ${path.relative(ROOT, resolved)})`);
      }
    }
  });
}

if (broken.length) {
  console.error(`${broken.length} broken link(s) of ${checked}:`);
  for (const line of broken) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`${checked} links in ${files.length} pages: all resolve`);
