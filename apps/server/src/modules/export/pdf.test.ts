import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { categoryDefinition } from '@healthbook/shared';
import { manySections, recordRow } from '../../../test/pdf-samples';
import { pdfText } from '../../../test/pdf-text';
import { renderRecordsPdf, type PdfInput, type PdfSection } from './pdf';

/** Whitespace as pdftotext lays it out does not matter: compare words. */
const words = (text: string) => text.replace(/\s+/g, ' ');

const section = (key: string, records: PdfSection['records']): PdfSection => ({ category: categoryDefinition(key)!, records });

function input(overrides: Partial<PdfInput> = {}): PdfInput {
  return {
    lang: 'en',
    timeZone: 'Europe/Athens',
    generatedAt: new Date('2026-11-25T12:05:00Z'),
    organization: { name: 'Northwind Health', logo: null },
    patient: { first_name: 'Maria', last_name: 'Papadopoulou', dob: '1980-03-04' },
    sections: [
      section('condition', [
        recordRow('condition', { name: 'Asthma', start_date: '2019-01-01', start_date_part: 'year', verification_status: 'confirmed', intensity: 4 }, { id: 1 }),
        recordRow('condition', { name: 'Hay fever', start_date: '2019-05-01', start_date_part: 'month', note: 'Worse in spring' }, {
          id: 2,
          attachments: [{ id: 9, file_name: 'allergy-test.pdf', content_type: 'application/pdf', size: 2_560, created_at: '2026-01-01T00:00:00.000Z' }],
        }),
      ]),
      section('biometrics', [recordRow('biometrics', { measure: 'blood_pressure', value: 120, diastolic: 80, date: '2026-10-02' }, { id: 3 })]),
    ],
    ...overrides,
  };
}

describe('renderRecordsPdf', () => {
  it('makes a PDF with the organisation, the patient, each category and every field of each record', async () => {
    const pdf = await renderRecordsPdf(input());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = words(pdfText(pdf));
    expect(text).toContain('Northwind Health');
    expect(text).toContain('Health record');
    expect(text).toContain('Maria Papadopoulou');
    expect(text).toContain('Date of birth 4 March 1980');
    // When it was made, in the patient's time zone (Athens: UTC+2 in November), named.
    expect(text).toContain('25 November 2026 at 14:05 (Eastern European Time)');
    expect(text).toContain('Conditions (2)');
    expect(text).toContain('Asthma');
    // Partial dates as entered: a year, a month of a year.
    expect(text).toMatch(/Start date 2019\b/);
    expect(text).toContain('Start date May 2019');
    expect(text).toContain('Verification status Confirmed');
    expect(text).toContain('Note Worse in spring');
    expect(text).toContain('Attachments allergy-test.pdf (2.5 KB)');
    expect(text).toContain('120/80 mmHg');
    expect(text).toContain('Page 1 of 1');
  });

  it('writes Greek: the interface, the records and the dates', async () => {
    const pdf = await renderRecordsPdf(
      input({
        lang: 'el',
        patient: { first_name: 'Μαρία', last_name: 'Παπαδοπούλου', dob: '1980-03-04' },
        sections: [section('condition', [recordRow('condition', { name: 'Άσθμα', start_date: '2019-05-01', start_date_part: 'month', note: 'Χειρότερα την άνοιξη' })])],
      }),
    );
    const text = words(pdfText(pdf));
    expect(text).toContain('Φάκελος υγείας');
    expect(text).toContain('Μαρία Παπαδοπούλου');
    expect(text).toContain('Παθήσεις (1)');
    expect(text).toContain('Άσθμα');
    expect(text).toContain('Χειρότερα την άνοιξη');
    expect(text).toMatch(/Ημερομηνία έναρξης Μ[αά]ιος 2019/);
    expect(text).toContain('Σελίδα 1 από 1');
  });

  it('notes a private record as such, and shows only the records it is given', async () => {
    const shown = await renderRecordsPdf(input({ sections: [section('condition', [recordRow('condition', { name: 'Secret thing' }, { private: true })])] }));
    expect(words(pdfText(shown))).toContain('For my eyes only Yes (private: only you see it)');
    const without = await renderRecordsPdf(input({ sections: [section('condition', [recordRow('condition', { name: 'Open thing' })])] }));
    expect(pdfText(without)).not.toContain('For my eyes only');
  });

  it('says there are no records when there are none', async () => {
    const text = words(pdfText(await renderRecordsPdf(input({ sections: [section('allergy', [])] }))));
    expect(text).toContain('There are no records to show');
    expect(text).toContain('Page 1 of 1');
  });

  it('numbers the pages of a long record "page N of M" and draws an SVG or PNG logo', async () => {
    const svg = readFileSync(new URL('../../db/seed/assets/northwind-logo.svg', import.meta.url));
    const pdf = await renderRecordsPdf(input({ sections: manySections(200), organization: { name: 'Northwind Health', logo: { data: svg, contentType: 'image/svg+xml' } } }));
    const text = pdfText(pdf);
    const pages = Number(/Page 1 of (\d+)/.exec(text)?.[1]);
    expect(pages).toBeGreaterThan(5);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    // A 1×1 PNG.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const withPng = await renderRecordsPdf(input({ organization: { name: 'Northwind Health', logo: { data: png, contentType: 'image/png' } } }));
    expect(words(pdfText(withPng))).toContain('Northwind Health');
    // A logo of a kind it cannot draw is left out, not an error.
    const other = await renderRecordsPdf(input({ organization: { name: 'Northwind Health', logo: { data: Buffer.from('GIF89a'), contentType: 'image/gif' } } }));
    expect(words(pdfText(other))).toContain('Northwind Health');
  });
});
