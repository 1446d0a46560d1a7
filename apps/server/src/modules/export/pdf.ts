import { createRequire } from 'node:module';
import pdfmake from 'pdfmake';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import { formatField, formatIsoDate, formatMoment, formatRecordTitle, readableFields, readingItems, translate, type CategoryDefinition, type JournalEntry, type Language, type SharedInsuranceCard, type SurveyResult } from '@healthbook/shared';
import type { RecordRow } from '../records/records.repository';

/**
 * A patient's records as a PDF (pdfmake on pdfkit): the organisation's logo (whole) and name, the
 * patient's name and date of birth, when it was made; a first page that summarises (SUMMARY:
 * active conditions, current medications, allergies with their criticality, recent results with
 * their flags, immunizations); then a section per category with a compact table per record
 * (every field with a value, as the apps show it: partial dates as entered, choices in the
 * reader's language; short fields two to a row), never split across pages unless it is longer
 * than one, its attachments listed, "Page N of M" on every page. Times are in the patient's zone,
 * named (formatMoment). Pure: everything it shows comes in `input` (the export and the shared-record download
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

export const PDF_FONT = 'DejaVuSans';
const FONT = PDF_FONT;
/** The families an SVG logo's text may ask for, drawn in DejaVu Sans Condensed. */
const LOGO_FONT_FAMILIES = ['Segoe UI', 'Roboto', 'Helvetica', 'Helvetica Neue', 'Arial', 'sans-serif', 'system-ui'];
/** The logo's box (points): wide enough for a wordmark, as tall as a line of the title. */
const LOGO_FIT: [number, number] = [180, 40];
const INK = '#1f2933';
const MUTED = '#5f6b7a';
const RULE = '#c9d1db';

/** pdfmake's server instance: the only files it may read are the two fonts; no URL, no other path. */
export interface PdfMakeServer {
  setFonts(fonts: Record<string, { normal: string; bold: string; italics: string; bolditalics: string }>): void;
  setUrlAccessPolicy(policy: (url: string) => boolean): void;
  setLocalAccessPolicy(policy: (path: string) => boolean): void;
  /** Heard while the laid-out pages are drawn (a fraction); read by createPdf when it is called. */
  setProgressCallback(callback: ((fraction: number) => void) | undefined): void;
  createPdf(doc: TDocumentDefinitions): { getBuffer(): Promise<Buffer> };
}

let printer: PdfMakeServer | undefined;

/** The one pdfmake instance, its fonts set (also the readable copy of an imported C-CDA's, fhir/ccda-pdf.ts). */
export function pdfPrinter(): PdfMakeServer {
  if (printer) return printer;
  const server = pdfmake as unknown as PdfMakeServer;
  // Paths, not buffers: an SVG logo's text is drawn by svg-to-pdfkit, which opens the font by the name pdfmake gives it.
  const require = createRequire(import.meta.url);
  const regular = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
  const bold = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');
  // A logo's text asks for the usual sans-serif faces (Segoe UI, Helvetica, Arial…): DejaVu's condensed face is nearest their width.
  const condensed = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf');
  const condensedBold = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf');
  const sans = { normal: condensed, bold: condensedBold, italics: condensed, bolditalics: condensedBold };
  server.setFonts({ [FONT]: { normal: regular, bold, italics: regular, bolditalics: bold }, ...Object.fromEntries(LOGO_FONT_FAMILIES.map((family) => [family, sans])) });
  server.setUrlAccessPolicy(() => false);
  const allowed = new Set([regular, bold, condensed, condensedBold]);
  server.setLocalAccessPolicy((path) => allowed.has(path));
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

/** The logo as pdfmake draws it: PNG or JPEG (checked by their first bytes) as an image, SVG as vectors; anything else is left out. */
function logoContent(logo: PdfInput['organization']['logo']): Record<string, unknown> | null {
  if (!logo || logo.data.length === 0) return null;
  const type = logo.contentType.toLowerCase().split(';')[0]!.trim();
  const { data } = logo;
  const isPng = data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const isJpeg = data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff;
  if ((type === 'image/png' && isPng) || ((type === 'image/jpeg' || type === 'image/jpg') && isJpeg)) {
    return { image: `data:${isPng ? 'image/png' : 'image/jpeg'};base64,${data.toString('base64')}`, fit: LOGO_FIT };
  }
  // Its text is drawn in a face of our own, a little wider or narrower than the designer's: what
  // runs past the viewBox is drawn too (overflow visible), not cut off, with room kept beside it.
  if (type === 'image/svg+xml' && data.includes('<svg')) return { svg: data.toString('utf8').replace(/<svg\b/, '<svg overflow="visible"'), fit: LOGO_FIT, font: FONT };
  return null;
}

const TABLE_LAYOUT = {
  hLineWidth: () => 0.5,
  vLineWidth: () => 0.5,
  hLineColor: () => RULE,
  vLineColor: () => RULE,
  fillColor: (rowIndex: number) => (rowIndex === 0 ? '#e3ebf5' : null),
  paddingLeft: () => 5,
  paddingRight: () => 5,
  paddingTop: () => 2,
  paddingBottom: () => 2,
};

/** A labelled value of a record: `bold` for what matters most (a result, a safety flag). */
type Row = [label: string, value: { text: string; bold?: boolean }];

/** A value (or label) too long to run on with others: it gets a line of its own. */
const isLong = ([label, value]: Row) => label.length > 40 || value.text.length > 60 || value.text.includes('\n');

/**
 * One record as every block of the PDF is drawn, compact: a heading bar (its title), then its
 * short fields run on as "label value · label value", each long one (a note) on its own line.
 * Kept on one page (unbreakable) unless `long`: a record longer than a page flows on, its
 * heading repeated.
 */
function labelledTable(title: string, rows: Row[], long = false): Content {
  const runs: Array<{ text: string; style?: string; bold?: boolean }> = [];
  const blocks: Content[] = [];
  for (const row of rows) {
    const [label, value] = row;
    if (isLong(row)) {
      blocks.push({ text: [{ text: `${label}  `, style: 'label' }, { text: value.text, bold: value.bold }], margin: [0, 1, 0, 0] });
      continue;
    }
    if (runs.length > 0) runs.push({ text: '  ·  ', style: 'label' });
    runs.push({ text: `${label} `, style: 'label' }, { text: value.text, bold: value.bold });
  }
  const body: Content[] = [...(runs.length > 0 ? [{ text: runs } as Content] : []), ...blocks];
  return {
    table: { widths: ['*'], headerRows: 1, keepWithHeaderRows: 1, dontBreakRows: !long, body: [[{ text: title, style: 'recordTitle' }], ...(body.length > 0 ? [[{ stack: body }]] : [])] },
    layout: TABLE_LAYOUT,
    margin: [0, 0, 0, 4],
    unbreakable: !long,
  };
}

/** One survey result: its survey and date, score, band, the safety flag when raised, who answered, then every answer. */
function assessmentTable(t: (key: string, vars?: Record<string, string | number>) => string, lang: Language, timeZone: string, result: SurveyResult): Content {
  const rows: Row[] = [
    [t('records:pdf.assessmentDate'), { text: formatMoment(result.submitted_at, lang, timeZone) }],
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
  const rows: Row[] = [[t('records:pdf.journalDate'), { text: formatIsoDate(entry.entry_date, locale) }]];
  if (entry.mood !== null) rows.push([t('records:pdf.journalMood'), { text: t('records:pdf.journalMoodValue', { mood: entry.mood, label: t(`records:pdf.journalMoods.${entry.mood}`) }) }]);
  if (entry.tags.length > 0) rows.push([t('records:pdf.journalTags'), { text: entry.tags.join(', ') }]);
  if (entry.text) rows.push([t('records:pdf.journalText'), { text: entry.text }]);
  if (entry.private) rows.push([t('records:fields.private'), { text: t('records:pdf.privateValue') }]);
  return labelledTable(entry.title, rows, entry.text.length >= 1200);
}

/** One insurance card: the insurer as the heading, then plan, numbers, holder and validity. */
function insuranceTable(t: (key: string, vars?: Record<string, string | number>) => string, locale: string, card: SharedInsuranceCard): Content {
  const rows: Row[] = [];
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
  // The title field is the heading already.
  const rows: Row[] = readableFields(t, locale, category, values)
    .filter((field) => field.name !== category.titleField)
    .map((field): Row => [field.label, { text: field.value }]);
  if (row.private) rows.push([t('records:fields.private'), { text: t('records:pdf.privateValue') }]);
  if (row.attachments.length > 0) {
    rows.push([t('records:fields.attachments'), { text: row.attachments.map((a) => `${a.file_name} (${formatFileSize(a.size, locale)})`).join(', ') }]);
  }
  return labelledTable(title, rows, !isShort(row));
}

/** Roughly how much text a record holds (a short record keeps its section's heading with it on one page). */
function isShort(row: RecordRow): boolean {
  let length = 0;
  for (const value of Object.values(row.data)) if (typeof value === 'string') length += value.length;
  return length < 1200 && row.attachments.length < 10;
}

/**
 * The first page's summary, as data: which category each part reads, which of its records it
 * keeps (active, current), how many, and which of the list's fields come first. Each record is a
 * line: its title, its list columns as the apps show them (readableFields: a medication's dosing,
 * a result with its flag, an allergy's criticality), its date.
 */
interface SummaryPart {
  key: 'conditions' | 'medications' | 'allergies' | 'results' | 'immunizations';
  category: string;
  keep?: (data: Record<string, unknown>) => boolean;
  /** The most recent record of each title only (a test's latest result). */
  latestPerTitle?: boolean;
  limit?: number;
  /** Fields shown first, in this order (then the rest of the list's columns). */
  first?: string[];
  /** List columns left out of the line (what `keep` already says). */
  omit?: string[];
}

const NOT_CURRENT = new Set(['inactive', 'remission', 'resolved', 'refuted', 'entered-in-error']);
const SUMMARY: SummaryPart[] = [
  { key: 'conditions', category: 'condition', keep: (d) => !d.end_date && !NOT_CURRENT.has(String(d.verification_status)) },
  { key: 'medications', category: 'medication', keep: (d) => d.stopped !== true, omit: ['stopped'] },
  { key: 'allergies', category: 'allergy', keep: (d) => !NOT_CURRENT.has(String(d.clinical_status)) && !NOT_CURRENT.has(String(d.verification_status)), first: ['criticality', 'reaction'], omit: ['clinical_status'] },
  { key: 'results', category: 'lab', latestPerTitle: true, limit: 10 },
  { key: 'immunizations', category: 'immunization', keep: (d) => d.stopped !== true, latestPerTitle: true, limit: 12 },
];
const SUMMARY_LIMIT = 15;
/** From this many records on, the PDF opens with the summary (fewer fit on a page as they are). */
export const SUMMARY_FROM = 8;
const FIRST_SECTION = 'first-section';

type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** One line of the summary: the record's title, its list columns, its date. */
function summaryLine(t: Translate, lang: Language, category: CategoryDefinition, part: SummaryPart, row: RecordRow): TableCell[] {
  const values = row.data as Record<string, unknown>;
  const title = formatRecordTitle(t, lang, category, values) || t(`records:categories.${category.key}.one`);
  // The list's columns as the apps read them: a lab's result with its units and its flag, a medication's dosing.
  const shown = new Set(readingItems(category).filter((i) => i.column && i.name !== category.titleField && i.name !== category.dateField && !part.omit?.includes(i.name)).map((i) => i.name));
  const fields = readableFields(t, lang, category, values).filter((f) => shown.has(f.name) || part.first?.includes(f.name));
  const rank = (name: string) => (part.first?.includes(name) ? part.first.indexOf(name) : (part.first?.length ?? 0));
  fields.sort((a, b) => rank(a.name) - rank(b.name));
  const dateField = category.fields.find((f) => f.name === category.dateField);
  const date = dateField ? formatField(t, lang, dateField, values, false) : '';
  return [
    { text: title, bold: true },
    { text: fields.map((f) => (part.first?.includes(f.name) ? [{ text: `${f.label}: ` }, { text: f.value, bold: true }] : [{ text: `${f.label}: ${f.value}` }])).flatMap((pieces, i) => (i === 0 ? pieces : [{ text: ' · ' }, ...pieces])) },
    { text: date, style: 'label', noWrap: true },
  ];
}

/** The summary's parts for the categories in the PDF (a part whose category was not chosen is left out). */
function summaryContent(t: Translate, lang: Language, sections: PdfSection[]): Content[] {
  const out: Content[] = [];
  for (const part of SUMMARY) {
    const section = sections.find((s) => s.category.key === part.category);
    if (!section) continue;
    let rows = section.records.filter((r) => !part.keep || part.keep(r.data as Record<string, unknown>));
    if (part.latestPerTitle) {
      rows = [...rows].sort((a, b) => (b.sort_date ?? '').localeCompare(a.sort_date ?? ''));
      const seen = new Set<string>();
      rows = rows.filter((r) => {
        const key = formatRecordTitle(t, lang, section.category, r.data as Record<string, unknown>).toLocaleLowerCase(lang);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }
    const limit = part.limit ?? SUMMARY_LIMIT;
    const more = rows.length - limit;
    const heading = { text: t(`records:pdf.summaryParts.${part.key}`), style: 'summaryPart' };
    if (rows.length === 0) {
      out.push({ stack: [heading, { text: t('records:pdf.summaryNone'), style: 'label' }], unbreakable: true });
      continue;
    }
    const body = rows.slice(0, limit).map((row) => summaryLine(t, lang, section.category, part, row));
    out.push({
      stack: [
        heading,
        { table: { widths: [140, '*', 'auto'], dontBreakRows: true, body }, layout: SUMMARY_LAYOUT },
        ...(more > 0 ? [{ text: t('records:pdf.summaryMore', { count: more }), style: 'label', margin: [0, 2, 0, 0] } as Content] : []),
      ],
      unbreakable: true,
    });
  }
  return out;
}

const SUMMARY_LAYOUT = {
  hLineWidth: (i: number, node: { table: { body: unknown[] } }) => (i === 0 || i === node.table.body.length ? 0 : 0.5),
  vLineWidth: () => 0,
  hLineColor: () => RULE,
  paddingLeft: (i: number) => (i === 0 ? 0 : 6),
  paddingRight: () => 4,
  paddingTop: () => 2,
  paddingBottom: () => 2,
};

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
        // Right-aligned beside a logo: a wordmark drawn a little wider than designed has room.
        { text: input.organization.name, style: 'organization', width: '*', alignment: logo ? 'right' : 'left', margin: logo ? [24, 12, 0, 0] : [0, 0, 0, 0] },
      ],
      margin: [0, 0, 0, 12],
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
      margin: [0, 2, 0, 8],
    },
  ];

  // The first page summarises; the sections begin on the next. A short PDF is its own summary.
  const recordCount = input.sections.reduce((n, s) => n + s.records.length, 0);
  const summary = recordCount >= SUMMARY_FROM ? summaryContent(t, lang, input.sections) : [];
  if (summary.length > 0) content.push({ text: t('records:pdf.summary'), style: 'section', margin: [0, 4, 0, 2] }, ...summary);
  // The first section starts a page unless the summary already ran past the first (see pageBreakBefore).
  let first = summary.length > 0;
  const breakBefore = (block: Content): Content => {
    if (!first) return block;
    first = false;
    return { stack: [block], id: FIRST_SECTION } as Content;
  };

  const sections = input.sections.filter((s) => s.records.length > 0);
  const assessments = input.assessments ?? [];
  const journal = input.journal ?? [];
  const insurance = input.insurance ?? [];
  if (sections.length === 0 && assessments.length === 0 && journal.length === 0 && insurance.length === 0) content.push({ text: t('records:pdf.noRecords'), style: 'empty' });
  for (const { category, records } of sections) {
    const heading: Content = { text: `${t(`records:categories.${category.key}.other`)} (${records.length})`, style: 'section' };
    const tables = records.map((row) => recordTable(t, lang, category, row));
    // The heading goes to the next page with its first record rather than stay alone at the foot of one.
    if (isShort(records[0]!)) content.push(breakBefore({ stack: [heading, tables[0]!], unbreakable: true }), ...tables.slice(1));
    else content.push(breakBefore(heading), ...tables);
  }
  if (insurance.length > 0) {
    const heading: Content = { text: `${t('records:pdf.insurance')} (${insurance.length})`, style: 'section' };
    const tables = insurance.map((card) => insuranceTable(t, lang, card));
    content.push(breakBefore({ stack: [heading, tables[0]!], unbreakable: true }), ...tables.slice(1));
  }
  if (assessments.length > 0) {
    const heading: Content = { stack: [{ text: `${t('records:pdf.assessments')} (${assessments.length})`, style: 'section' }, { text: t('records:pdf.assessmentNote'), style: 'note' }] };
    const tables = assessments.map((result) => assessmentTable(t, lang, input.timeZone, result));
    content.push(breakBefore({ stack: [heading, tables[0]!], unbreakable: true }), ...tables.slice(1));
  }
  if (journal.length > 0) {
    const heading: Content = { text: `${t('records:pdf.journal')} (${journal.length})`, style: 'section' };
    const tables = journal.map((entry) => journalTable(t, lang, entry));
    if (journal[0]!.text.length < 1200) content.push(breakBefore({ stack: [heading, tables[0]!], unbreakable: true }), ...tables.slice(1));
    else content.push(breakBefore(heading), ...tables);
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
        { text: `${t('records:pdf.madeAt')}: ${madeAt}`, style: 'running', width: '*' },
        { text: t('records:pdf.page', { current: currentPage, total: pageCount }), style: 'running', alignment: 'right', width: 'auto' },
      ],
      margin: [40, 16, 40, 0],
    }),
    content,
    pageBreakBefore: (node) => node.id === FIRST_SECTION && node.startPosition.pageNumber === 1,
    defaultStyle: { font: FONT, fontSize: 9, color: INK, lineHeight: 1.15 },
    styles: {
      organization: { fontSize: 13, bold: true },
      title: { fontSize: 18, bold: true, margin: [0, 0, 0, 4] },
      note: { fontSize: 10, color: MUTED, margin: [0, 0, 0, 6] },
      section: { fontSize: 13, bold: true, margin: [0, 8, 0, 4] },
      summaryPart: { fontSize: 10, bold: true, margin: [0, 6, 0, 2] },
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
