import { xmlRootName } from '@healthbook/shared/xml-root';

/**
 * What a chosen file is, by its content (never its name): a FHIR file (JSON: the server decides
 * whether it is a valid Bundle), a C-CDA (XML whose root element is ClinicalDocument), other
 * XML, or neither.
 */
export type ImportSource = { kind: 'fhir'; json: Record<string, unknown> } | { kind: 'ccda' } | { kind: 'otherXml' } | { kind: 'unknown' };

export function detectImportSource(text: string): ImportSource {
  const content = text.replace(/^\uFEFF/, '');
  const start = content.trimStart()[0];
  if (start === '{') {
    try {
      const parsed: unknown = JSON.parse(content);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return { kind: 'fhir', json: parsed as Record<string, unknown> };
    } catch {
      return { kind: 'unknown' };
    }
    return { kind: 'unknown' };
  }
  if (start === '<') {
    const root = xmlRootName(content);
    if (root === 'ClinicalDocument') return { kind: 'ccda' };
    return root ? { kind: 'otherXml' } : { kind: 'unknown' };
  }
  return { kind: 'unknown' };
}

/** A zip (an Apple Health export.zip) by its first bytes: a local file header, PK\x03\x04. */
export async function isZip(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return head.length === 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}
