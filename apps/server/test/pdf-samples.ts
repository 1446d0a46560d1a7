import { CATEGORIES, type CategoryDefinition } from '@healthbook/shared';
import type { PdfSection } from '../src/modules/export/pdf';
import type { RecordRow } from '../src/modules/records/records.repository';
import { minimalRecord } from './record-samples';

/** A record row as the repository reads it, for the renderer's tests (no database). */
export function recordRow(category: string, data: Record<string, unknown>, extra: Partial<RecordRow> = {}): RecordRow {
  return {
    id: extra.id ?? 1,
    patient_id: 1,
    category,
    data: data as RecordRow['data'],
    private: false,
    sort_date: null,
    version: 1,
    created_at: '2026-01-01T10:00:00.000Z',
    updated_at: '2026-01-01T10:00:00.000Z',
    attachments: [],
    provenance: null,
    ...extra,
  };
}

/** `count` records spread over every category, each with a few fields filled (the 500-record measure). */
export function manySections(count: number): PdfSection[] {
  const byCategory = new Map<string, RecordRow[]>();
  for (let i = 0; i < count; i++) {
    const category = CATEGORIES[i % CATEGORIES.length]!;
    const data: Record<string, unknown> = { ...minimalRecord(category.key), note: `Note ${i}: followed up at the clinic, nothing new to report.` };
    if (category.key === 'condition' || category.key === 'symptom') Object.assign(data, { start_date: '2019-05-01', start_date_part: 'month', intensity: (i % 10) + 1, verified: i % 2 === 0 });
    const rows = byCategory.get(category.key) ?? [];
    rows.push(recordRow(category.key, data, { id: i + 1, attachments: i % 25 === 0 ? [{ id: i, file_name: `scan-${i}.pdf`, content_type: 'application/pdf', size: 123_456, created_at: '2026-01-01T10:00:00.000Z' }] : [] }));
    byCategory.set(category.key, rows);
  }
  return CATEGORIES.filter((c) => byCategory.has(c.key)).map((c) => ({ category: c as CategoryDefinition, records: byCategory.get(c.key)! }));
}
