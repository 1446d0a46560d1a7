// The JavaScript a page loads, gzipped: opens the page in Debian's Chromium (playwright-core),
// waits for network idle, and gzips (level 9) every script and modulepreload it fetched.
import { gzipSync, constants } from 'node:zlib';
import { chromium } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const looksLikeScript = (url, contentType) =>
  /javascript|ecmascript/i.test(contentType ?? '') || /\.m?js(\?|#|$)/.test(new URL(url).pathname);

/**
 * @param {string} pageUrl
 * @returns {Promise<{ url: string, status: number,
 *   files: { path: string, contentType: string, isJavaScript: boolean, bytes: number, gzipBytes: number }[],
 *   totalBytes: number, totalGzipBytes: number, pageErrors: string[] }>}
 */
export async function measurePageScripts(pageUrl) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const origin = new URL(pageUrl).origin;
    /** @type {Set<string>} */
    const scriptUrls = new Set();
    const pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error') pageErrors.push(msg.text());
    });
    page.on('response', (response) => {
      const type = response.request().resourceType();
      const url = response.url();
      if (!url.startsWith('http')) return;
      // <link rel="modulepreload"> is reported as 'script' by Chromium; the content-type check catches any other label.
      if (type === 'script' || ((type === 'other' || type === 'fetch') && looksLikeScript(url, response.headers()['content-type']))) {
        scriptUrls.add(url);
      }
    });
    const response = await page.goto(pageUrl, { waitUntil: 'networkidle', timeout: 60_000 });
    const status = response?.status() ?? 0;
    await context.close();

    const files = [];
    for (const url of scriptUrls) {
      // Identity encoding: the server's precompressed .gz/.br files must not stand in for our own gzip.
      const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
      if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
      const body = Buffer.from(await res.arrayBuffer());
      const gz = gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
      const u = new URL(url);
      const contentType = res.headers.get('content-type') ?? '';
      files.push({
        path: u.origin === origin ? u.pathname + u.search : url,
        contentType,
        isJavaScript: /javascript|ecmascript/i.test(contentType),
        bytes: body.length,
        gzipBytes: gz.length,
      });
    }
    files.sort((a, b) => b.gzipBytes - a.gzipBytes);
    return {
      url: pageUrl,
      status,
      files,
      totalBytes: files.reduce((s, f) => s + f.bytes, 0),
      totalGzipBytes: files.reduce((s, f) => s + f.gzipBytes, 0),
      pageErrors,
    };
  } finally {
    await browser.close();
  }
}
