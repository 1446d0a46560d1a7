import { convertCcdaToFhir, convertXmlToCcda } from '@medplum/ccda';
import { xmlRootName, type Language } from '@healthbook/shared';

/**
 * A C-CDA (HL7 Consolidated CDA: a Continuity of Care Document as MyChart or Blue Button give
 * it) read into a FHIR R4 Bundle by Medplum's converter, for the FHIR import's preview. Runs in
 * the worker thread (ccda.worker.ts): the converter is synchronous, about 1 s for 6 MB.
 *
 * What the converter reads: allergies, problems, medications, immunizations, results, vital
 * signs, procedures, encounters (and more: care plans, goals, notes, which the import lists as
 * skipped). Sections it has no mapping for are passed over rather than refused
 * (`ignoreUnsupportedSections`); their titles are answered, and the original document is kept
 * in the Document Center when the import is accepted, so that nothing of it is lost.
 */

/** Why a document is not read; each a message key of the errors catalog. */
export type CcdaProblem = 'ccdaNotXml' | 'ccdaNotClinicalDocument' | 'ccdaUnreadable';

/** A document not read; `code` says why (and crosses from the worker thread as the error's code). */
export class CcdaError extends Error {
  constructor(readonly code: CcdaProblem) {
    super(code);
    this.name = 'CcdaError';
  }
}

/** A document to convert in the worker; with `copy`, its readable PDF made too (when it is kept). */
export interface CcdaJob {
  xml: string;
  copy?: { lang: Language; fileName: string; madeAt: string };
}

export interface CcdaConversion {
  /** The Bundle, serialised (the worker hands text back: no structured copy of thousands of objects on the event loop). */
  json: string;
  title: string | null;
  unconvertedSections: string[];
}

export interface CcdaResult extends CcdaConversion {
  /** The readable copy (asked for, and the narrative read), else null. */
  pdf: Uint8Array | null;
}

/** An element's text (the parser gives an element with attributes as an object holding `#text`). */
const textOf = (value: unknown): string | null => {
  if (typeof value === 'string') return value.trim() || null;
  if (value && typeof value === 'object' && '#text' in value) return textOf((value as { '#text': unknown })['#text']);
  return null;
};

export function convertCcda(xml: string): CcdaConversion {
  const root = xmlRootName(xml);
  if (!root) throw new CcdaError('ccdaNotXml');
  if (root !== 'ClinicalDocument') throw new CcdaError('ccdaNotClinicalDocument');
  let ccda: ReturnType<typeof convertXmlToCcda>;
  try {
    ccda = convertXmlToCcda(xml);
  } catch {
    throw new CcdaError('ccdaNotXml');
  }
  if (!ccda || typeof ccda !== 'object' || !ccda.recordTarget) throw new CcdaError('ccdaNotClinicalDocument');
  let bundle: ReturnType<typeof convertCcdaToFhir>;
  try {
    bundle = convertCcdaToFhir(ccda, { ignoreUnsupportedSections: true });
  } catch {
    // The converter trips over what it does not expect (it reads templates it knows): the document stays the patient's, to upload as it is.
    throw new CcdaError('ccdaUnreadable');
  }

  // A section with entries of which none became a resource: its content lives only in the original.
  const composition = bundle.entry?.find((e) => e.resource?.resourceType === 'Composition')?.resource;
  const converted = composition?.resourceType === 'Composition' ? (composition.section ?? []) : [];
  const sections = (ccda.component?.structuredBody?.component ?? []).flatMap((c) => c.section ?? []);
  const unconvertedSections = sections
    .filter((s, i) => (s.entry?.length ?? 0) > 0 && (converted[i]?.entry?.length ?? 0) === 0)
    .map((s) => textOf(s.title) ?? '')
    .filter(Boolean);
  return { json: JSON.stringify(bundle), title: textOf(ccda.title), unconvertedSections };
}
