import { createRequire } from 'node:module';
import pdfmake from 'pdfmake';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import { formatIsoDate, formatRecordTitle, readableFields, translate, type CategoryDefinition, type JournalEntry, type Language, type SharedInsuranceCard, type SurveyResult } from '@healthbook/shared';
import type { RecordRow } from '../records/records.repository';

/**
 * A patient's records as a PDF (pdfmake on pdfkit): the organisation's logo and name, the
 * patient's name and date of birth, when it was made, then a section per category with a
 * two-column table per record (every field with a value, as the apps show it: partial dates as
 * entered, choices in the reader's language), its attachments listed, "Page N of M" on every
 * page. Pure: everything it shows comes in `input` (the export and the shared-record download
 * both use it). Text is drawn in DejaVu Sans, embedded (subset), so Greek renders; the PDF's
 * built-in fonts have no Greek.
 */

export interface PdfSection {
  category: CategoryDefinition;
  records: RecordRow[];
}

export interface PdfInput {
  lang: Language;
  timeZone: string;
  generatedAt: Date;
  organization: { name: string; logo: { data: Buffer; contentType: string } | null };
  patient: { first_name: string; last_name: string; dob: string | null };
  sections: PdfSection[];
  /** Survey results (already in the reader's language), newest first; none: no section. */
  assessments?: SurveyResult[];
  /** Journal entries, newest first; none: no section. */
  journal?: JournalEntry[];
  /** Insurance cards (their details; never the photos); none: no section. */
  insurance?: SharedInsuranceCard[];
  /** An extra line under the title, e.g. "Shared with Dr Smith until 30 Nov 2026, 14:00" (already translated). */
  note?: string;
}

const FONT = 'DejaVuSans';
const INK = '#1f2933';
const MUTED = '#5f6b7a';
const RULE = '#c9d1db';
const LABEL_FILL = '#f1f4f8';

/** pdfmake's server instance: the only files it may read are the two fonts; no URL, no other path. */
interface PdfMakeServer {
  setFonts(fonts: Record<string, { normal: string; bold: string; italics: string; bolditalics: string }>): void;
  setUrlAccessPolicy(policy: (url: string) => boolean): void;
  setLocalAccessPolicy(policy: (path: string) => boolean): void;
  /** Heard while the laid-out pages are drawn (a fraction); read by createPdf when it is called. */
  setProgressCallback(callback: ((fraction: number) => void) | undefined): void;
  createPdf(doc: TDocumentDefinitions): { getBuffer(): Promise<Buffer> };
}

let printer: PdfMakeServer | undefined;

function pdfPrinter(): PdfMakeServer {
  if (printer) return printer;
  const server = pdfmake as unknown as PdfMakeServer;
  // Paths, not buffers: an SVG logo's text is drawn by svg-to-pdfkit, which opens the font by the name pdfmake gives it.
  const require = createRequire(import.meta.url);
  const regular = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
  const bold = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');
  server.setFonts({ [FONT]: { normal: regular, bold, italics: regular, bolditalics: bold } });
  server.setUrlAccessPolicy(() => false);
  server.setLocalAccessPolicy((path) => path === regular || path === bold);
  printer = server;
  return server;
}

/** A size in bytes as a person reads it ("840 B", "12.5 KB", "3.2 MB"). */
export function formatFileSize(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}

/** A moment as a person reads it in a time zone ("25 November 2026, 14:05"). */
export function formatMoment(at: Date, locale: string, timeZone: string): string {
  return new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : locale, { dateStyle: 'long', timeStyle: 'short', hourCycle: 'h23', timeZone }).format(at);
}

/** The logo as pdfmake draws it: PNG or JPEG (checked by their first bytes) as an image, SVG as vectors; anything else is left out. */
function logoContent(logo: PdfInput['organization']['logo']): Record<string, unknown> | null {
  if (!logo || logo.data.length === 0) return null;
  const type = logo.contentType.toLowerCase().split(';')[0]!.trim();
  const { data } = logo;
  const isPng = data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const isJpeg = data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff;
  if ((type === 'image/png' && isPng) || ((type === 'image/jpeg' || type === 'image/jpg') && isJpeg)) {
    return { image: `data:${isPng ? 'image/png' : 'image/jpeg'};base64,${data.toString('base64')}`, fit: [140, 40] };
  }
  if (type === 'image/svg+xml' && data.includes('<svg')) return { svg: data.toString('utf8'), fit: [140, 40], font: FONT };
  return null;
}

const TABLE_LAYOUT = {
  hLineWidth: () => 0.5,
  vLineWidth: () => 0.5,
  hLineColor: () => RULE,
  vLineColor: () => RULE,
  fillColor: (rowIndex: number, _node: unknown, columnIndex: number) => (rowIndex === 0 ? '#e3ebf5' : columnIndex === 0 ? LABEL_FILL : null),
  paddingLeft: () => 5,
  paddingRight: () => 5,
  paddingTop: () => 3,
  paddingBottom: () => 3,
};

/** A heading row, then label/value rows, as every table of the PDF is drawn. */
function labelledTable(title: string, rows: Array<[string, Content]>): Content {
  const body: TableCell[][] = [[{ text: title, style: 'recordTitle', colSpan: 2 }, {}], ...rows.map(([label, value]): TableCell[] => [{ text: label, style: 'label' }, value as TableCell])];
  return { table: { widths: [150, '*'], headerRows: 1, keepWithHeaderRows: 1, dontBreakRows: true, body }, layout: TABLE_LAYOUT, margin: [0, 0, 0, 8] };
}

/** One survey result: its survey and date, score, band, the safety flag when raised, who answered, then every answer. */
function assessmentTable(t: (key: string, vars?: Record<string, string | number>) => string, locale: string, timeZone: string, result: SurveyResult): Content {
  const rows: Array<[string, Content]> = [
    [t('records:pdf.assessmentDate'), { text: formatMoment(new Date(result.submitted_at), locale, timeZone) }],
    [t('records:pdf.assessmentScore'), { text: t('records:pdf.assessmentScoreValue', { score: result.score, max: result.max_score }) }],
    [t('records:pdf.assessmentResult'), { text: result.band.label, bold: true }],
  ];
  if (result.safety) rows.push([t('records:pdf.assessmentSafety'), { text: t('records:pdf.assessmentSafetyValue'), bold: true }]);
  rows.push([t('records:pdf.assessmentBy'), { text: result.submitted_by }]);
  for (const answer of result.answers) if (answer.label !== null) rows.push([answer.text, { text: answer.label }]);
  return labelledTable(result.title, rows);
}

/** One journal entry: its day and title as the heading, then its mood, tags and text. */
function journalTable(t: (key: string, vars?: Record<string, string | number>) => string, locale: string, entry: JournalEntry): Content {
  const rows: Array<[string, Content]> = [[t('records:pdf.journalDate'), { text: formatIsoDate(entry.entry_date, locale) }]];
  if (entry.mood !== null) rows.push([t('records:pdf.journalMood'), { text: t('records:pdf.journalMoodValue', { mood: entry.mood, label: t(`records:pdf.journalMoods.${entry.mood}`) }) }]);
  if (entry.tags.length > 0) rows.push([t('records:pdf.journalTags'), { text: entry.tags.join(', ') }]);
  if (entry.text) rows.push([t('records:pdf.journalText'), { text: entry.text }]);
  if (entry.private) rows.push([t('records:fields.private'), { text: t('records:pdf.privateValue') }]);
  return labelledTable(entry.title, rows);
}

/** One insurance card: the insurer as the heading, then plan, numbers, holder and validity. */
function insuranceTable(t: (key: string, vars?: Record<string, string | number>) => string, locale: string, card: SharedInsuranceCard): Content {
  const rows: Array<[string, Content]> = [];
  if (card.plan) rows.push([t('records:pdf.insurancePlan'), { text: card.plan }]);
  rows.push([t('records:pdf.insuranceMember'), { text: card.member_number }]);
  if (card.group_number) rows.push([t('records:pdf.insuranceGroup'), { text: card.group_number }]);
  const relationship = t(`records:pdf.insuranceRelationship.${card.holder_relationship}`);
  rows.push([t('records:pdf.insuranceHolder'), { text: card.holder_name ? `${card.holder_name} (${relationship})` : relationship }]);
  const validity = [
    card.valid_from ? t('records:pdf.insuranceValidFrom', { from: formatIsoDate(card.valid_from, locale) }) : null,
    card.valid_to ? t('records:pdf.insuranceValidTo', { to: formatIsoDate(card.valid_to, locale) }) : null,
  ].filter((part): part is string => part !== null);
  if (validity.length > 0) rows.push([t('records:pdf.insuranceValidity'), { text: validity.join(' ') }]);
  return labelledTable(card.insurer, rows);
}

/** One record: its title as the table's heading row (repeated when the table runs onto the next page), then a row per field. */
function recordTable(t: (key: string, vars?: Record<string, string | number>) => string, locale: string, category: CategoryDefinition, row: RecordRow): Content {
  const values = row.data as Record<string, unknown>;
  const title = formatRecordTitle(t, locale, category, values) || t('records:categories.' + category.key + '.one');
  const rows: Array<[string, Content]> = readableFields(t, locale, category, values).map((field) => [field.label, { text: field.value }]);
  if (row.private) rows.push([t('records:fields.private'), { text: t('records:pdf.privateValue') }]);
  if (row.attachments.length > 0) {
    rows.push([t('records:fields.attachments'), { stack: row.attachments.map((a) => ({ text: `${a.file_name} (${formatFileSize(a.size, locale)})` })) }]);
  }
  return labelledTable(title, rows);
}

/** Roughly how much text a record holds (a short record keeps its section's heading with it on one page). */
function isShort(row: RecordRow): boolean {
  let length = 0;
  for (const value of Object.values(row.data)) if (typeof value === 'string') length += value.length;
  return length < 1200 && row.attachments.length < 10;
}

export async function renderRecordsPdf(input: PdfInput, onProgress?: (fraction: number) => void): Promise<Buffer> {
  try {
    return await render(input, onProgress);
  } catch (err) {
    // A logo pdfkit cannot read (a damaged file) leaves the PDF without it rather than without the PDF.
    if (!input.organization.logo) throw err;
    return render({ ...input, organization: { ...input.organization, logo: null } }, onProgress);
  }
}

async function render(input: PdfInput, onProgress?: (fraction: number) => void): Promise<Buffer> {
  const { lang } = input;
  const t = (key: string, vars?: Record<string, string | number>) => translate(lang, key, vars);
  const madeAt = formatMoment(input.generatedAt, lang, input.timeZone);
  const patientName = `${input.patient.first_name} ${input.patient.last_name}`.trim();
  const title = t('records:pdf.title');
  const logo = logoContent(input.organization.logo);

  const content: Content[] = [
    {
      columns: [
        ...(logo ? [{ ...logo, width: 'auto' } as unknown as Content] : []),
        { text: input.organization.name, style: 'organization', width: '*', margin: logo ? [12, 10, 0, 0] : [0, 0, 0, 0] },
      ],
      margin: [0, 0, 0, 14],
    },
    { text: title, style: 'title' },
    ...(input.note ? [{ text: input.note, style: 'note' } as Content] : []),
    {
      table: {
        widths: ['auto', '*'],
        body: [
          [{ text: t('records:pdf.patient'), style: 'label' }, { text: patientName || '—', bold: true }],
          [{ text: t('records:pdf.dateOfBirth'), style: 'label' }, { text: input.patient.dob ? formatIsoDate(input.patient.dob, lang) : '—' }],
          [{ text: t('records:pdf.madeAt'), style: 'label' }, { text: madeAt }],
        ],
      },
      layout: 'noBorders',
      margin: [0, 4, 0, 10],
    },
  ];

  const sections = input.sections.filter((s) => s.records.length > 0);
  const assessments = input.assessments ?? [];
  const journal = input.journal ?? [];
  const insurance = input.insurance ?? [];
  if (sections.length === 0 && assessments.length === 0 && journal.length === 0 && insurance.length === 0) content.push({ text: t('records:pdf.noRecords'), style: 'empty' });
  for (const { category, records } of sections) {
    const heading: Content = { text: `${t(`records:categories.${category.key}.other`)} (${records.length})`, style: 'section' };
    const tables = records.map((row) => recordTable(t, lang, category, row));
    // The heading goes to the next page with its first record rather than stay alone at the foot of one.
    if (isShort(records[0]!)) content.push({ stack: [heading, tables[0]!], unbreakable: true }, ...tables.slice(1));
    else content.push(heading, ...tables);
  }
  if (insurance.length > 0) {
    const heading: Content = { text: `${t('records:pdf.insurance')} (${insurance.length})`, style: 'section' };
    const tables = insurance.map((card) => insuranceTable(t, lang, card));
    content.push({ stack: [heading, tables[0]!], unbreakable: true }, ...tables.slice(1));
  }
  if (assessments.length > 0) {
    const heading: Content = { stack: [{ text: `${t('records:pdf.assessments')} (${assessments.length})`, style: 'section' }, { text: t('records:pdf.assessmentNote'), style: 'note' }] };
    const tables = assessments.map((result) => assessmentTable(t, lang, input.timeZone, result));
    content.push({ stack: [heading, tables[0]!], unbreakable: true }, ...tables.slice(1));
  }
  if (journal.length > 0) {
    const heading: Content = { text: `${t('records:pdf.journal')} (${journal.length})`, style: 'section' };
    const tables = journal.map((entry) => journalTable(t, lang, entry));
    if (journal[0]!.text.length < 1200) content.push({ stack: [heading, tables[0]!], unbreakable: true }, ...tables.slice(1));
    else content.push(heading, ...tables);
  }

  const doc: TDocumentDefinitions = {
    pageSize: 'A4',
    pageMargins: [40, 48, 40, 48],
    language: lang,
    info: { title: patientName ? `${title}: ${patientName}` : title, author: input.organization.name, subject: title, creator: input.organization.name, producer: 'HealthBook' },
    header: (currentPage) =>
      currentPage === 1
        ? null
        : { columns: [{ text: `${title} · ${patientName}`, style: 'running' }, { text: input.organization.name, style: 'running', alignment: 'right' }], margin: [40, 20, 40, 0] },
    footer: (currentPage, pageCount) => ({
      columns: [
        { text: `${t('records:pdf.madeAt')}: ${madeAt}`, style: 'running' },
        { text: t('records:pdf.page', { current: currentPage, total: pageCount }), style: 'running', alignment: 'right' },
      ],
      margin: [40, 16, 40, 0],
    }),
    content,
    defaultStyle: { font: FONT, fontSize: 9, color: INK, lineHeight: 1.15 },
    styles: {
      organization: { fontSize: 13, bold: true },
      title: { fontSize: 18, bold: true, margin: [0, 0, 0, 4] },
      note: { fontSize: 10, color: MUTED, margin: [0, 0, 0, 6] },
      section: { fontSize: 13, bold: true, margin: [0, 12, 0, 6] },
      recordTitle: { bold: true, fontSize: 10 },
      label: { color: MUTED },
      running: { fontSize: 8, color: MUTED },
      empty: { fontSize: 11, italics: true, margin: [0, 16, 0, 0] },
    },
  };
  const server = pdfPrinter();
  // Laying out the pages is the first half of the work, drawing them the second: pdfmake reports only the drawing.
  onProgress?.(0.05);
  server.setProgressCallback(onProgress && ((drawn) => onProgress(0.5 + drawn / 2)));
  const made = server.createPdf(doc);
  server.setProgressCallback(undefined);
  return made.getBuffer();
}
