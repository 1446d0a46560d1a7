import { createRequire } from 'node:module';
import createDOMPurify from 'dompurify';
import { imageSize } from 'image-size';
import type * as Jsdom from 'jsdom';
import { ORGANIZATION_ASSET_LIMITS, type OrganizationAsset } from '@healthbook/shared';
import { sniffFile } from '../../lib/files/file-types';
import { stripMetadata } from '../../lib/files/strip-metadata';

export type AssetType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/svg+xml';
export const ASSET_EXTENSIONS: Record<AssetType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/svg+xml': 'svg' };

export type PreparedAsset = { ok: true; data: Buffer; type: AssetType } | { ok: false; problem: string; vars?: Record<string, string | number> };

/**
 * One DOMPurify for the process, on a jsdom window, built on first use: most processes never see
 * an SVG upload. jsdom itself is loaded then too: loading it took 1 s of every start (the server's,
 * and each operator command's).
 */
let purifier: ReturnType<typeof createDOMPurify> | undefined;
function purify() {
  if (!purifier) {
    const { JSDOM } = createRequire(import.meta.url)('jsdom') as typeof Jsdom;
    purifier = createDOMPurify(new JSDOM('').window as unknown as Parameters<typeof createDOMPurify>[0]);
  }
  return purifier;
}

/** Looks like an SVG document: markup with an <svg> element near its start (the sanitiser decides the rest). */
function looksLikeSvg(data: Buffer): boolean {
  const head = data.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '');
  return /^\s*</.test(head) && /<svg[\s>]/i.test(head);
}

/**
 * An SVG is kept only when DOMPurify (SVG profile) finds nothing to take out: script, event
 * handlers, foreignObject, javascript: addresses and the like make it refused, never silently
 * changed. A DOCTYPE (entities) is refused outright. What is stored is DOMPurify's output.
 */
export function sanitizeSvg(text: string): { ok: true; svg: string } | { ok: false } {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return { ok: false };
  const cleaned = text.replace(/^\uFEFF/, '').replace(/<\?xml[^>]*\?>/i, '').replace(/<!--[\s\S]*?-->/g, '').trim();
  const dompurify = purify();
  const svg = dompurify.sanitize(cleaned, { USE_PROFILES: { svg: true, svgFilters: true }, ADD_ATTR: ['xmlns', 'xmlns:xlink', 'role'] });
  // DOMPurify reports the document's own body as removed: only what came from the file counts.
  const removed = dompurify.removed.filter((entry) => {
    if ('element' in entry) return !['BODY', 'HTML', 'HEAD'].includes((entry.element as { nodeName?: string }).nodeName ?? '');
    return true;
  });
  if (removed.length > 0 || !/^<svg[\s>]/i.test(svg)) return { ok: false };
  return { ok: true, svg };
}

/**
 * Checks an uploaded logo or favicon and makes it ready to store: PNG, JPEG or WebP told by
 * their bytes (metadata stripped, as avatars are), or a sanitised SVG; within the size and the
 * pixel dimensions of its kind. Answers a `validation` key when it is refused.
 */
export function prepareAsset(kind: OrganizationAsset, data: Buffer): PreparedAsset {
  const limits = ORGANIZATION_ASSET_LIMITS[kind];
  if (data.length > limits.maxBytes) return { ok: false, problem: 'validation:assetTooLarge', vars: { max: Math.round(limits.maxBytes / 1024) } };
  const sniffed = sniffFile(data);
  if (sniffed === 'image/png' || sniffed === 'image/jpeg' || sniffed === 'image/webp') {
    let size: { width?: number; height?: number };
    try {
      size = imageSize(data);
    } catch {
      return { ok: false, problem: 'validation:assetType' };
    }
    const { width = 0, height = 0 } = size;
    if (width > limits.maxPixels || height > limits.maxPixels || width < limits.minPixels || height < limits.minPixels) {
      return { ok: false, problem: 'validation:assetDimensions', vars: { min: limits.minPixels, max: limits.maxPixels, width, height } };
    }
    return { ok: true, data: stripMetadata(data, sniffed), type: sniffed };
  }
  if (sniffed === null && looksLikeSvg(data)) {
    const result = sanitizeSvg(data.toString('utf8'));
    if (!result.ok) return { ok: false, problem: 'validation:assetSvgUnsafe' };
    return { ok: true, data: Buffer.from(result.svg, 'utf8'), type: 'image/svg+xml' };
  }
  return { ok: false, problem: 'validation:assetType' };
}
