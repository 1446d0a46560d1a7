import { PDF_RETRY_AFTER_S } from '@healthbook/shared';
import { HttpError } from '../../lib/http-errors';
import { KeyedLimiter, PoolFullError, WorkerPool } from '../../lib/worker-pool';
import type { RecordRow } from '../records/records.repository';
import type { PdfInput } from './pdf';

/**
 * PDFs are drawn off the event loop (issue 24, §3): in a small pool of worker threads
 * (pdf.worker.ts), at most one at a time per patient in this process (and an export's, in any
 * process: its running row, export.repository.ts). A second PDF of the same
 * patient while one is being made is 429 with Retry-After (it does not wait: the first one
 * may take a while, and the client can say so); more PDFs waiting than the pool takes is 503
 * with Retry-After. Both are said in the reader's language.
 */

/**
 * A PDF's input as it crosses to the worker: plain data (a category by its key, the logo as
 * bytes); the sections' records follow as parts of PART_RECORDS, in order, each its own message.
 */
export interface PdfJob extends Omit<PdfInput, 'sections' | 'organization'> {
  organization: { name: string; logo: { data: Uint8Array; contentType: string } | null };
  sections: Array<{ category: string; count: number }>;
}
export type PdfPart = RecordRow[];

/** Records per message to the worker: copying one takes a few milliseconds of the event loop. */
const PART_RECORDS = 200;

const pool = new WorkerPool<PdfJob, Uint8Array>({ name: 'pdf', source: new URL('./pdf.worker.ts', import.meta.url), bundle: 'pdf.worker' });
const perPatient = new KeyedLimiter(1);

const inProgress = () => new HttpError(429, 'errors:pdfInProgress', { seconds: PDF_RETRY_AFTER_S }, { 'Retry-After': String(PDF_RETRY_AFTER_S) });

/** Refuses at once (429) when a PDF of this patient is being made: before reading what would go in it. */
export function assertNoPdfInProgress(patientId: number): void {
  if (perPatient.busy(String(patientId))) throw inProgress();
}

/** The PDF of `input`, drawn in a worker thread, for this patient; `onProgress` hears how far it is (0 to 1). */
export async function renderPdf(patientId: number, input: PdfInput, onProgress?: (fraction: number) => void): Promise<Buffer> {
  const release = perPatient.acquire(String(patientId));
  if (!release) throw inProgress();
  try {
    const job: PdfJob = { ...input, sections: input.sections.map((s) => ({ category: s.category.key, count: s.records.length })) };
    const records = input.sections.flatMap((s) => s.records);
    const parts: PdfPart[] = [];
    for (let i = 0; i < records.length; i += PART_RECORDS) parts.push(records.slice(i, i + PART_RECORDS));
    const out = await pool.run(job, { parts, onProgress });
    return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  } catch (err) {
    if (err instanceof PoolFullError) throw new HttpError(503, 'errors:pdfBusy', { seconds: PDF_RETRY_AFTER_S }, { 'Retry-After': String(PDF_RETRY_AFTER_S) });
    throw err;
  } finally {
    release();
  }
}

/** Ends the PDF workers (the server's shutdown; they never keep the process alive while idle anyway). */
export const closePdfWorkers = () => pool.close();
