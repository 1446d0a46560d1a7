import { FHIR_IMPORT_MAX_RESOURCES, FHIR_MAX_DEPTH } from '@healthbook/shared';
import { HttpError } from '../../lib/http-errors';
import { sliceClock } from '../../lib/slices';
import type { Bundle } from '@medplum/fhirtypes';
import { readBundle, type BundleEntryRead, type ShapeProblem } from './fhir.shapes';

/**
 * What an import may be before it is read (issue 24, §3): at most FHIR_IMPORT_MAX_RESOURCES
 * entries, nested at most FHIR_MAX_DEPTH deep (checked iteratively, in slices: a bundle nested
 * 10,000 deep is a 400, not a stack overflow). Over either: 400 naming the cap.
 */
export async function checkImportLimits(bundle: Record<string, unknown>): Promise<void> {
  const entries = Array.isArray(bundle.entry) ? bundle.entry.length : 0;
  if (entries > FHIR_IMPORT_MAX_RESOURCES) throw new HttpError(400, 'errors:fhirTooManyResources', { count: entries, max: FHIR_IMPORT_MAX_RESOURCES });
  const clock = sliceClock();
  const stack: Array<[unknown, number]> = [[bundle, 1]];
  let visited = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (depth > FHIR_MAX_DEPTH) throw new HttpError(400, 'errors:fhirTooDeep', { max: FHIR_MAX_DEPTH });
    const children = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    if (++visited % 512 === 0) await clock.pause();
  }
}

/** readBundle (fhir.shapes.ts) a slice of entries at a time, the event loop free between slices; the same answer. */
export async function readBundleInSlices(bundle: Record<string, unknown>, maxProblems = 10, sliceSize = 100): Promise<ReturnType<typeof readBundle>> {
  const all = Array.isArray(bundle.entry) ? (bundle.entry as unknown[]) : null;
  if (!all || all.length <= sliceSize) return readBundle(bundle, maxProblems);
  const { entry: _entry, ...rest } = bundle;
  const entries: BundleEntryRead[] = [];
  const problems: ShapeProblem[] = [];
  let more = 0;
  const clock = sliceClock();
  for (let start = 0; start < all.length; start += sliceSize) {
    // The Bundle's own checks once (with the first slice); each slice's entries renumbered to their place.
    const read = readBundle({ ...rest, entry: all.slice(start, start + sliceSize) }, Number.MAX_SAFE_INTEGER);
    for (const e of read.entries) entries.push({ ...e, index: e.index + start });
    for (const p of read.problems) {
      if (start > 0 && p.entry === null) continue;
      if (problems.length < maxProblems) problems.push(p.entry === null ? p : { ...p, entry: p.entry + start });
      else more++;
    }
    await clock.pause();
  }
  return { entries, problems, more };
}

/** JSON.stringify(bundle), an entry at a time in slices: the same text, without one long hold of the event loop. */
export async function stringifyBundle(bundle: Bundle): Promise<string> {
  const { entry = [], ...rest } = bundle;
  const head = JSON.stringify(rest);
  if (entry.length === 0) return JSON.stringify(bundle);
  const clock = sliceClock();
  const parts: string[] = [];
  for (const e of entry) {
    parts.push(JSON.stringify(e));
    await clock.pause();
  }
  // The entries where JSON.stringify puts them: after the Bundle's other members, as its last.
  return `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}"entry":[${parts.join(',')}]}`;
}
