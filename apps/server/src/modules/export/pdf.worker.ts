import { categoryDefinition } from '@healthbook/shared';
import { serveTasks } from '../../lib/worker-task';
import { renderRecordsPdf, type PdfInput } from './pdf';
import type { PdfJob, PdfPart } from './pdf-render';

/**
 * The PDF worker thread (pdf-render.ts sends the jobs): the input comes as plain data (a
 * category by its key, the logo as bytes), the PDF goes back as bytes, handed over.
 */
serveTasks<PdfJob, Uint8Array, PdfPart>(async (job, parts, progress) => {
  const records = parts.flat();
  let at = 0;
  const logo = job.organization.logo;
  const input: PdfInput = {
    ...job,
    organization: { name: job.organization.name, logo: logo ? { data: Buffer.from(logo.data.buffer, logo.data.byteOffset, logo.data.byteLength), contentType: logo.contentType } : null },
    sections: job.sections.map((s) => {
      const category = categoryDefinition(s.category);
      if (!category) throw new Error(`unknown category ${s.category}`);
      at += s.count;
      return { category, records: records.slice(at - s.count, at) };
    }),
  };
  const pdf = await renderRecordsPdf(input, progress);
  // Its own buffer (not a slice of Node's pool), so it can be handed over whole.
  const out = new Uint8Array(pdf.length);
  out.set(pdf);
  return { result: out, transfer: [out.buffer] };
});
