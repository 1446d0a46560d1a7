import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { translate, type Language } from '@healthbook/shared';
import { PDF_FONT, pdfPrinter } from '../export/pdf';
import type { Narrative, NarrativeBlock } from './ccda-narrative';

/**
 * A readable copy of an imported C-CDA as a PDF, kept in the Document Center beside the
 * original XML (which the Document Center offers only as a download): the document's title,
 * whose it is, then each section's title and narrative (paragraphs, tables, lists) as the
 * patient's portal showed them. Drawn in DejaVu Sans (embedded), so any script renders.
 */

const MUTED = '#5f6b7a';
const RULE = '#c9d1db';
const TABLE_LAYOUT = {
  hLineWidth: () => 0.5,
  vLineWidth: () => 0.5,
  hLineColor: () => RULE,
  vLineColor: () => RULE,
  fillColor: (_row: number, node: { table: { headerRows?: number } }, _column: number) => (_row < (node.table.headerRows ?? 0) ? '#e3ebf5' : null),
  paddingLeft: () => 4,
  paddingRight: () => 4,
  paddingTop: () => 2,
  paddingBottom: () => 2,
};

function blockContent(block: NarrativeBlock): Content {
  if (block.kind === 'text') return { text: block.text, margin: [0, 0, 0, 4] };
  if (block.kind === 'list') return { ul: block.items, margin: [0, 0, 0, 4] };
  const columns = Math.max(1, ...[...block.header, ...block.rows].map((r) => r.length));
  const pad = (row: string[]) => Array.from({ length: columns }, (_, i) => ({ text: row[i] ?? '', ...(block.header.includes(row) ? { bold: true } : {}) }));
  return {
    table: { headerRows: block.header.length, widths: Array.from({ length: columns }, () => '*'), body: [...block.header, ...block.rows].map(pad) },
    layout: TABLE_LAYOUT,
    fontSize: columns > 6 ? 7 : 8,
    margin: [0, 0, 0, 6],
  } as Content;
}

export function renderCcdaPdf(narrative: Narrative, input: { lang: Language; fileName: string; madeAt: string }): Promise<Buffer> {
  const t = (key: string, vars?: Record<string, string | number>) => translate(input.lang, key, vars);
  const title = narrative.title ?? input.fileName;
  const content: Content[] = [
    { text: title, style: 'title' },
    ...(narrative.patient ? [{ text: narrative.patient, style: 'patient' }] : []),
    { text: t('records:ccdaCopy.note', { file: input.fileName }), style: 'note' },
  ];
  for (const section of narrative.sections) {
    if (!section.title && section.blocks.length === 0) continue;
    content.push({ text: section.title || t('records:ccdaCopy.untitled'), style: 'section' });
    if (section.blocks.length === 0) content.push({ text: t('records:ccdaCopy.empty'), color: MUTED, margin: [0, 0, 0, 4] });
    for (const block of section.blocks) content.push(blockContent(block));
  }
  const doc: TDocumentDefinitions = {
    pageSize: 'A4',
    pageMargins: [40, 48, 40, 48],
    language: input.lang,
    info: { title, subject: title, producer: 'HealthBook' },
    footer: (currentPage, pageCount) => ({
      columns: [
        { text: t('records:ccdaCopy.madeAt', { date: input.madeAt }), style: 'running', width: '*' },
        { text: t('records:pdf.page', { current: currentPage, total: pageCount }), style: 'running', alignment: 'right', width: 'auto' },
      ],
      margin: [40, 16, 40, 0],
    }),
    content,
    defaultStyle: { font: PDF_FONT, fontSize: 9, lineHeight: 1.15 },
    styles: {
      title: { fontSize: 18, bold: true, margin: [0, 0, 0, 4] },
      patient: { fontSize: 12, bold: true, margin: [0, 0, 0, 4] },
      note: { fontSize: 9, color: MUTED, margin: [0, 0, 0, 8] },
      section: { fontSize: 12, bold: true, margin: [0, 8, 0, 4] },
      running: { fontSize: 8, color: MUTED },
    },
  };
  return pdfPrinter().createPdf(doc).getBuffer();
}
