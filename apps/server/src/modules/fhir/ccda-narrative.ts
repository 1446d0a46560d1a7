import { SaxesParser } from 'saxes';

/**
 * The human-readable part of a C-CDA, in document order: its title, the patient's name, and
 * each section's title and narrative block (`section/text`: paragraphs, tables, lists, line
 * breaks). Read with a streaming parser (saxes) rather than from the converter's parsed object,
 * which keeps no order between text and elements (a paragraph's words around a bold one come out
 * run together). What a person reads in their portal is what this keeps; the coded entries are
 * the converter's business.
 */

export type NarrativeBlock = { kind: 'text'; text: string } | { kind: 'table'; header: string[][]; rows: string[][] } | { kind: 'list'; items: string[] };

export interface Narrative {
  title: string | null;
  patient: string | null;
  sections: Array<{ title: string; blocks: NarrativeBlock[] }>;
}

const local = (name: string) => name.slice(name.indexOf(':') + 1);
/** Runs of white space as one space (a line break kept as one). */
const tidy = (text: string) =>
  text
    .split('\n')
    .map((line) => line.replace(/[ \t\r\f\v]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');

export function readNarrative(xml: string): Narrative {
  const narrative: Narrative = { title: null, patient: null, sections: [] };
  const stack: string[] = [];
  const parser = new SaxesParser({ xmlns: false });

  // Where text goes now: a buffer of the innermost thing being read.
  let buffer: string[] | null = null;
  const buffers: Array<string[] | null> = [];
  const open = () => {
    buffers.push(buffer);
    buffer = [];
  };
  const close = (): string => {
    const text = tidy((buffer ?? []).join(''));
    buffer = buffers.pop() ?? null;
    return text;
  };

  let section: Narrative['sections'][number] | null = null;
  const sections: Array<Narrative['sections'][number]> = [];
  /** Depth of the section's `text` element while inside it, else -1. */
  let textDepth = -1;
  let table: { header: string[][]; rows: string[][]; inHead: boolean } | null = null;
  let row: string[] | null = null;
  let rowHasData = false;
  let list: string[] | null = null;
  const lists: string[][] = [];
  const names: { given: string[]; family: string[] } = { given: [], family: [] };

  const loose = () => {
    // Text of the narrative outside any paragraph, cell or item becomes a paragraph of its own.
    if (!section || textDepth < 0 || table || list) return;
    const text = close();
    if (text) section.blocks.push({ kind: 'text', text });
    open();
  };

  parser.on('opentag', (tag) => {
    const name = local(tag.name);
    const parent = stack[stack.length - 1];
    stack.push(name);
    if (name === 'section') {
      section = { title: '', blocks: [] };
      sections.push(section);
      narrative.sections.push(section);
      return;
    }
    if (textDepth < 0) {
      if ((name === 'title' && (parent === 'section' || stack.length === 2)) || ((name === 'given' || name === 'family') && stack.includes('patient') && stack.includes('recordTarget'))) open();
      if (name === 'text' && parent === 'section' && section) {
        textDepth = stack.length;
        open();
      }
      return;
    }
    switch (name) {
      case 'table':
        loose();
        table = { header: [], rows: [], inHead: false };
        break;
      case 'thead':
        if (table) table.inHead = true;
        break;
      case 'tr':
        row = [];
        rowHasData = false;
        break;
      case 'td':
        rowHasData = true;
        open();
        break;
      case 'th':
        open();
        break;
      case 'list':
        loose();
        if (list) {
          // A list inside an item: the item's words so far come first, then the inner items.
          const sofar = tidy((buffer ?? []).join(''));
          if (sofar) list.push(sofar);
          buffer?.splice(0);
          lists.push(list);
        }
        list = [];
        break;
      case 'item':
        open();
        break;
      case 'paragraph':
      case 'caption':
        if (!table && !list) loose();
        if (!table && !list) open();
        break;
      case 'br':
        buffer?.push('\n');
        break;
      default:
        break;
    }
  });

  parser.on('text', (text) => buffer?.push(text));
  parser.on('cdata', (text) => buffer?.push(text));

  parser.on('closetag', (tag) => {
    const name = local(tag.name);
    const depth = stack.length;
    stack.pop();
    const parent = stack[stack.length - 1];
    if (name === 'section') {
      sections.pop();
      section = sections[sections.length - 1] ?? null;
      return;
    }
    if (textDepth >= 0 && depth === textDepth && name === 'text') {
      const rest = close();
      if (rest && section) section.blocks.push({ kind: 'text', text: rest });
      textDepth = -1;
      return;
    }
    if (textDepth < 0) {
      if (name === 'title' && parent === 'section' && section) section.title = close();
      else if (name === 'title' && depth === 2) narrative.title = close() || null;
      else if (name === 'given' || name === 'family') {
        if (buffer) names[name].push(close());
      }
      return;
    }
    switch (name) {
      case 'td':
      case 'th':
        row?.push(close());
        break;
      case 'tr':
        if (table && row) (table.inHead || !rowHasData ? table.header : table.rows).push(row);
        row = null;
        break;
      case 'thead':
        if (table) table.inHead = false;
        break;
      case 'table':
        if (table && section && (table.header.length || table.rows.length)) section.blocks.push({ kind: 'table', header: table.header, rows: table.rows });
        table = null;
        break;
      case 'item': {
        const text = close();
        if (list && text) list.push(text);
        break;
      }
      case 'list': {
        const done = list ?? [];
        list = lists.pop() ?? null;
        // A list inside an item or another list: its items join the outer list, indented.
        if (list) list.push(...done.map((item) => `– ${item}`));
        else if (section && done.length) section.blocks.push({ kind: 'list', items: done });
        break;
      }
      case 'paragraph':
      case 'caption': {
        if (table || list) break;
        const text = close();
        if (text && section) section.blocks.push({ kind: 'text', text });
        break;
      }
      default:
        break;
    }
  });

  parser.write(xml).close();
  const patient = [...names.given, ...names.family].join(' ').trim();
  narrative.patient = patient || null;
  return narrative;
}
