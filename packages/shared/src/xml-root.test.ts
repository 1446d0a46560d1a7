import { describe, expect, it } from 'vitest';
import { xmlRootName } from './xml-root';

describe('xmlRootName', () => {
  it('finds the root past a byte-order mark, the declaration, a stylesheet, comments and a doctype; without its prefix', () => {
    expect(xmlRootName('\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<?xml-stylesheet type="text/xsl" href="CDA.xsl"?>\n<!-- exported -->\n<!DOCTYPE x>\n<ClinicalDocument xmlns="urn:hl7-org:v3">')).toBe('ClinicalDocument');
    expect(xmlRootName('<cda:ClinicalDocument xmlns:cda="urn:hl7-org:v3"/>')).toBe('ClinicalDocument');
    expect(xmlRootName('<html><body/></html>')).toBe('html');
  });

  it('is null for what does not open as XML', () => {
    for (const text of ['', '{"resourceType":"Bundle"}', '<<not xml', '%PDF-1.7', '<!-- only a comment -->']) expect(xmlRootName(text), text).toBeNull();
  });
});
