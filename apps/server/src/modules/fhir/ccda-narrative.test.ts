import { describe, expect, it } from 'vitest';
import { readNarrative } from './ccda-narrative';

describe('readNarrative', () => {
  it('keeps the title, the patient and each section’s narrative in order: paragraphs, tables, lists, line breaks', () => {
    const xml = `<?xml version="1.0"?><?xml-stylesheet type="text/xsl" href="CDA.xsl"?>
<ClinicalDocument xmlns="urn:hl7-org:v3"><title>Summary of care</title>
  <recordTarget><patientRole><patient><name><given>Μαρία</given><given>E.</given><family>Παπαδοπούλου</family></name></patient></patientRole></recordTarget>
  <component><structuredBody>
    <component><section><templateId root="1"/><title>Allergies</title><text>
      <paragraph>Known <content styleCode="Bold">allergies</content> below.</paragraph>
      <table border="1"><thead><tr><th>Substance</th><th>Reaction</th></tr></thead>
        <tbody><tr><td>Penicillin</td><td>Hives</td></tr><tr><td><content ID="a2">Peanuts</content></td><td>Anaphylaxis<br/>in 2019</td></tr></tbody></table>
      <list><item>One</item><item>Two <list><item>nested</item></list></item></list>
      Plain tail</text>
      <entry><observation><title>not narrative</title><text>nor this</text></observation></entry>
      <component><section><title>Sub</title><text>Inner</text></section></component>
    </section></component>
    <component><section><title>Empty</title></section></component>
  </structuredBody></component></ClinicalDocument>`;
    expect(readNarrative(xml)).toEqual({
      title: 'Summary of care',
      patient: 'Μαρία E. Παπαδοπούλου',
      sections: [
        {
          title: 'Allergies',
          blocks: [
            { kind: 'text', text: 'Known allergies below.' },
            { kind: 'table', header: [['Substance', 'Reaction']], rows: [['Penicillin', 'Hives'], ['Peanuts', 'Anaphylaxis\nin 2019']] },
            { kind: 'list', items: ['One', 'Two', '– nested'] },
            { kind: 'text', text: 'Plain tail' },
          ],
        },
        { title: 'Sub', blocks: [{ kind: 'text', text: 'Inner' }] },
        { title: 'Empty', blocks: [] },
      ],
    });
  });

  it('refuses XML that is not well-formed (the copy is then not made; the original is still kept)', () => {
    expect(() => readNarrative('<ClinicalDocument><title>x</ClinicalDocument>')).toThrow();
  });
});
