import { serveTasks } from '../../lib/worker-task';
import { convertCcda, type CcdaJob, type CcdaResult } from './ccda';
import { readNarrative } from './ccda-narrative';
import { renderCcdaPdf } from './ccda-pdf';

/**
 * The C-CDA worker thread (fhir-documents.service.ts sends the documents): the XML comes as
 * text, the Bundle goes back as text, the readable copy as bytes (handed over). A document the
 * converter cannot read fails with its problem as the error's code (CcdaError), which the pool
 * hands back as it is; a narrative that cannot be read only means no copy (the original is kept).
 */
serveTasks<CcdaJob, CcdaResult>(async ({ xml, copy }) => {
  const conversion = convertCcda(xml);
  if (!copy) return { result: { ...conversion, pdf: null } };
  let made: Buffer;
  try {
    made = await renderCcdaPdf(readNarrative(xml), copy);
  } catch {
    return { result: { ...conversion, pdf: null } };
  }
  // Its own buffer (not a slice of Node's pool), so it can be handed over whole.
  const pdf = new Uint8Array(made.length);
  pdf.set(made);
  return { result: { ...conversion, pdf }, transfer: [pdf.buffer] };
});
