import { describe, expect, it } from 'vitest';
import { detectImportSource, isZip } from './import-source';

describe('detectImportSource: by the content, never the name', () => {
  it('a JSON object is a FHIR file (the server decides if it is a valid Bundle)', () => {
    expect(detectImportSource('\uFEFF  {"resourceType":"Bundle","type":"document"}')).toEqual({ kind: 'fhir', json: { resourceType: 'Bundle', type: 'document' } });
    expect(detectImportSource('[1, 2]')).toEqual({ kind: 'unknown' });
    expect(detectImportSource('{"resourceType": ')).toEqual({ kind: 'unknown' });
  });

  it('XML whose root is ClinicalDocument (with or without a prefix, after a declaration, a stylesheet, comments) is a C-CDA', () => {
    expect(detectImportSource('<?xml version="1.0"?>\n<?xml-stylesheet type="text/xsl" href="CDA.xsl"?>\n<!-- from MyChart -->\n<ClinicalDocument xmlns="urn:hl7-org:v3"/>')).toEqual({ kind: 'ccda' });
    expect(detectImportSource('<cda:ClinicalDocument xmlns:cda="urn:hl7-org:v3"/>')).toEqual({ kind: 'ccda' });
    expect(detectImportSource('<?xml version="1.0"?><html/>')).toEqual({ kind: 'otherXml' });
  });

  it('anything else is neither', () => {
    expect(detectImportSource('%PDF-1.7')).toEqual({ kind: 'unknown' });
    expect(detectImportSource('')).toEqual({ kind: 'unknown' });
  });
});

describe('isZip: an Apple Health export by its first bytes', () => {
  it('a local file header (PK\\x03\\x04) is a zip, whatever the name and type', async () => {
    expect(await isZip(new Blob([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00])], { type: 'text/plain' }))).toBe(true);
    expect(await isZip(new Blob(['PK\x05\x06']))).toBe(false);
    expect(await isZip(new Blob(['{"resourceType":"Bundle"}']))).toBe(false);
    expect(await isZip(new Blob(['PK']))).toBe(false);
  });
});
