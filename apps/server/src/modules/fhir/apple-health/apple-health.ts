/**
 * The reader of an Apple Health export (`export.zip`, issue 28 §4): its clinical records (one FHIR
 * resource per file under `clinical-records/`, for the FHIR import's preview) and its
 * measurements as biometrics (weight, height, heart rate, blood pressure, glucose, oxygen
 * saturation, temperature), thinned to one a day per measure unless asked otherwise.
 *
 * An export is mostly `export.xml`, hundreds of megabytes of step counts and other samples. It is
 * never held in memory: the zip is read at random (yauzl, from the file), each entry inflated as a
 * stream, the XML parsed as it comes (saxes), backpressure kept by reading the stream one chunk
 * at a time, and the event loop given back between slices (sliceClock) so that other requests
 * are answered while it runs. Nothing here knows HTTP: a route turns `AppleHealthExportError`
 * into a localised 400.
 */
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { parseJsonInSlices } from '../../../lib/json-in-slices';
import { sliceClock } from '../../../lib/slices';
import {
  APPLE_BLOOD_PRESSURE,
  APPLE_DIASTOLIC,
  APPLE_QUANTITY_TYPES,
  APPLE_SYSTOLIC,
  dayInZone,
  parseAppleDate,
  storedUnit,
  toStoredValue,
  type BiometricMeasure,
} from './apple-health-measures';

// yauzl 3 has these; @types/yauzl describes version 2.
declare module 'yauzl' {
  interface Entry {
    fileNameRaw: Buffer;
  }
  function getFileNameLowLevel(generalPurposeBitFlag: number, fileNameBuffer: Buffer, extraFields: Array<{ id: number; data: Buffer }>, strictFileNames: boolean): string;
}

export type { BiometricMeasure } from './apple-health-measures';

export type AppleHealthErrorCode = 'not_zip' | 'no_health_data' | 'too_large' | 'too_many';

/** Why an export cannot be read at all (a single bad file inside it is a counted problem instead). */
export class AppleHealthExportError extends Error {
  constructor(
    readonly code: AppleHealthErrorCode,
    detail?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'AppleHealthExportError';
  }
}

export interface AppleHealthMeasurement {
  measure: BiometricMeasure;
  /** In the stored unit of the measure (`unit`); blood pressure: the systolic value. */
  value: number;
  diastolic?: number;
  unit: string;
  /** The instant of the reading (ISO 8601, UTC). */
  at: string;
  /** Its calendar day in the reader's time zone (YYYY-MM-DD). */
  day: string;
}

export interface MeasureCounts {
  /** Readings of this measure found in the file. */
  read: number;
  /** Readings returned (after thinning). */
  kept: number;
  /** Readings left out: a unit we do not know, a value that is not a number, or one out of the measure's range. */
  refused: number;
}

export interface AppleHealthCounts {
  measures: Record<BiometricMeasure, MeasureCounts>;
  clinical: { read: number; failed: number };
  /** The first and last day of the readings kept (in the time zone), or null without any. */
  dateRange: { from: string; to: string } | null;
  /** Short descriptions of what went wrong, the first few of each kind. */
  problems: string[];
}

export interface AppleHealthExport {
  clinical: Array<Record<string, unknown>>;
  measurements: AppleHealthMeasurement[];
  counts: AppleHealthCounts;
}

export interface ReadAppleHealthOptions {
  /** 'day' (the default): the latest reading of each measure on each day; 'none': every reading. */
  thin?: 'day' | 'none';
  /** The IANA time zone of the days (default UTC). */
  timeZone?: string;
  /** Uncompressed bytes read so far and in all; called at most every 100 ms, and once at the end. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /** The most uncompressed bytes read from the zip in all (default 4 GB). */
  maxUncompressedBytes?: number;
  /** The largest clinical record file (default 5 MB). */
  maxClinicalFileBytes?: number;
  /** The most readings kept (after thinning; default: no bound): one more is `too_many`, and the reading stops. */
  maxMeasurements?: number;
}

const DEFAULT_MAX_UNCOMPRESSED = 4 * 1024 ** 3;
const DEFAULT_MAX_CLINICAL_FILE = 5 * 1024 * 1024;
/** Deflate cannot shrink data more than about 1032 to 1: a larger claimed ratio is a lie or a bomb. */
const MAX_RATIO = 1100;
const PROGRESS_EVERY_MS = 100;
/** Problems kept per kind, and in all: enough to show what went wrong, not a second copy of the file. */
const PROBLEMS_PER_KIND = 5;
const MAX_PROBLEMS = 50;
/** XML errors after which the rest of the file is not worth reading. */
const MAX_XML_ERRORS = 1000;
/** Bytes of a candidate XML file read to see its root element. */
const SNIFF_BYTES = 64 * 1024;

const MEASURE_LIST: readonly BiometricMeasure[] = ['weight', 'height', 'blood_pressure', 'heart_rate', 'glucose', 'temperature', 'oxygen_saturation'];

/** Where a zip entry sits in an export: the export's folder (`apple_health_export/`) is optional. */
const EXPORT_FOLDER = 'apple_health_export/';
const CLINICAL_FILE = /^clinical-records\/[^/]+$/;

interface Planned {
  entry: Entry;
  name: string;
}

class Problems {
  readonly list: string[] = [];
  private readonly perKind = new Map<string, number>();
  add(kind: string, text: string) {
    const n = (this.perKind.get(kind) ?? 0) + 1;
    this.perKind.set(kind, n);
    if (n <= PROBLEMS_PER_KIND && this.list.length < MAX_PROBLEMS) this.list.push(text);
    else if (n === PROBLEMS_PER_KIND + 1 && this.list.length < MAX_PROBLEMS) this.list.push(`${kind}: more of the same left out`);
  }
}

/** Reads an Apple Health export zip (see the file's comment). */
export async function readAppleHealthExport(zipPath: string, options: ReadAppleHealthOptions = {}): Promise<AppleHealthExport> {
  const { signal } = options;
  signal?.throwIfAborted();
  const maxBytes = options.maxUncompressedBytes ?? DEFAULT_MAX_UNCOMPRESSED;
  const maxClinical = options.maxClinicalFileBytes ?? DEFAULT_MAX_CLINICAL_FILE;
  const dayOf = dayInZone(options.timeZone ?? 'UTC');
  const problems = new Problems();

  const size = (await stat(zipPath)).size;
  const zip = await openZip(zipPath);
  try {
    const entries = await listEntries(zip, problems, signal);
    const xmlEntry = await findHealthXml(zip, entries, signal);
    const clinicalEntries: Planned[] = [];
    for (const p of entries) {
      if (!CLINICAL_FILE.test(p.name) || p.name.endsWith('/')) continue;
      if (!p.name.toLowerCase().endsWith('.json')) problems.add('clinical', `${p.name}: not a JSON file`);
      else if (p.entry.uncompressedSize > maxClinical) problems.add('clinical', `${p.name}: larger than ${Math.round(maxClinical / 1024 / 1024)} MB`);
      else if (suspectRatio(p.entry)) problems.add('zip', `${p.name}: compressed beyond belief`);
      else clinicalEntries.push(p);
    }
    const clinicalFailedEarly = entries.filter((p) => CLINICAL_FILE.test(p.name) && !p.name.endsWith('/')).length - clinicalEntries.length;
    if (!xmlEntry && clinicalEntries.length === 0 && clinicalFailedEarly === 0)
      throw new AppleHealthExportError('no_health_data', 'no export.xml and no clinical records in the zip');
    if (xmlEntry && suspectRatio(xmlEntry.entry)) throw new AppleHealthExportError('too_large', `${xmlEntry.name} is compressed beyond belief`);

    const total = (xmlEntry?.entry.uncompressedSize ?? 0) + clinicalEntries.reduce((sum, p) => sum + p.entry.uncompressedSize, 0);
    if (total > maxBytes) throw new AppleHealthExportError('too_large', `${total} bytes uncompressed (at most ${maxBytes})`);
    // A zip file cannot hold more uncompressed data than deflate's best ratio allows.
    if (total > size * MAX_RATIO) throw new AppleHealthExportError('too_large', 'the sizes in the zip do not add up');

    const progress = progressReporter(total, options.onProgress);
    const clock = sliceClock();

    const clinical: Array<Record<string, unknown>> = [];
    let clinicalFailed = clinicalFailedEarly;
    for (const p of clinicalEntries) {
      const resource = await readClinical(zip, p, problems, progress, clock, signal);
      if (resource) clinical.push(resource);
      else clinicalFailed++;
    }

    const collector = new MeasurementCollector(options.thin ?? 'day', dayOf, options.maxMeasurements ?? Number.POSITIVE_INFINITY);
    if (xmlEntry) await readHealthXml(zip, xmlEntry, collector, problems, progress, clock, signal);
    progress.finish();

    const measurements = collector.result();
    const measures = Object.fromEntries(
      MEASURE_LIST.map((m) => [m, { read: collector.read[m], kept: 0, refused: collector.refused[m] }]),
    ) as Record<BiometricMeasure, MeasureCounts>;
    let from: string | null = null;
    let to: string | null = null;
    for (const m of measurements) {
      measures[m.measure].kept++;
      if (from === null || m.day < from) from = m.day;
      if (to === null || m.day > to) to = m.day;
    }
    return {
      clinical,
      measurements,
      counts: {
        measures,
        clinical: { read: clinical.length, failed: clinicalFailed },
        dateRange: from !== null && to !== null ? { from, to } : null,
        problems: problems.list,
      },
    };
  } finally {
    zip.close();
  }
}

const suspectRatio = (entry: Entry) => entry.uncompressedSize > 1024 * 1024 && entry.uncompressedSize > Math.max(entry.compressedSize, 1) * MAX_RATIO;

function openZip(zipPath: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    // Strings undecoded: yauzl would stop at an entry named with `..`, which we only skip.
    yauzl.open(zipPath, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) reject(new AppleHealthExportError('not_zip', error?.message));
      else resolve(zip);
    });
  });
}

/**
 * The entries that matter, named relative to the export's folder: files under `clinical-records/`
 * and XML files at the top. An entry whose name leaves the folder (`..`, an absolute path) is
 * skipped; nothing here is written to disk, but such a name is never a real export's.
 */
function listEntries(zip: ZipFile, problems: Problems, signal?: AbortSignal): Promise<Planned[]> {
  return new Promise((resolve, reject) => {
    const out: Planned[] = [];
    const onAbort = () => {
      zip.removeAllListeners('entry');
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    zip.on('entry', (entry: Entry) => {
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
      if (yauzl.validateFileName(name) !== null) {
        problems.add('zip', `${JSON.stringify(name.slice(0, 80))}: a path outside the export, skipped`);
      } else {
        const relative = name.startsWith(EXPORT_FOLDER) ? name.slice(EXPORT_FOLDER.length) : name;
        if (CLINICAL_FILE.test(relative) || (/^[^/]+\.xml$/i.test(relative) && !relative.includes('/'))) out.push({ entry, name: relative });
      }
      zip.readEntry();
    });
    zip.once('end', () => {
      signal?.removeEventListener('abort', onAbort);
      resolve(out);
    });
    zip.once('error', (error: Error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new AppleHealthExportError('not_zip', error.message));
    });
    zip.readEntry();
  });
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error || !stream ? reject(error ?? new Error('no stream')) : resolve(stream))));
}

/**
 * `export.xml`, or else (an export from a phone in another language names it in that language,
 * `exportación.xml`) the one top-level XML file whose root element is `<HealthData>`. Apple's
 * `export_cda.xml` beside it is a CDA document, never the one.
 */
async function findHealthXml(zip: ZipFile, entries: Planned[], signal?: AbortSignal): Promise<Planned | undefined> {
  const xmls = entries.filter((p) => !p.name.includes('/') && p.name.toLowerCase().endsWith('.xml'));
  const exact = xmls.find((p) => p.name === 'export.xml');
  if (exact) return exact;
  const found: Planned[] = [];
  for (const p of xmls) {
    if (p.name.toLowerCase() === 'export_cda.xml') continue;
    signal?.throwIfAborted();
    if ((await rootElement(zip, p.entry)) === 'HealthData') found.push(p);
  }
  return found.length === 1 ? found[0] : undefined;
}

/** The name of an XML entry's root element, from its first bytes (undefined if not XML). */
async function rootElement(zip: ZipFile, entry: Entry): Promise<string | undefined> {
  let stream: Readable;
  try {
    stream = await openEntry(zip, entry);
  } catch {
    return undefined;
  }
  const parser = new SaxesParser({ position: false });
  let root: string | undefined;
  parser.on('opentag', (tag) => {
    root ??= tag.name;
  });
  parser.on('error', () => undefined);
  const decoder = new StringDecoder('utf8');
  let seen = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      parser.write(decoder.write(chunk));
      seen += chunk.length;
      if (root !== undefined || seen >= SNIFF_BYTES) break;
    }
  } catch {
    // Not readable: not the one.
  } finally {
    stream.destroy();
  }
  return root;
}

interface Progress {
  add(bytes: number): void;
  finish(): void;
}

function progressReporter(total: number, onProgress?: (done: number, total: number) => void): Progress {
  let done = 0;
  let last = 0;
  return {
    add(bytes) {
      done += bytes;
      if (!onProgress) return;
      const now = Date.now();
      if (now - last < PROGRESS_EVERY_MS) return;
      last = now;
      onProgress(Math.min(done, total), total);
    },
    finish() {
      onProgress?.(total, total);
    },
  };
}

/** A clinical record file: one FHIR resource as JSON, or a counted problem. */
async function readClinical(
  zip: ZipFile,
  p: Planned,
  problems: Problems,
  progress: Progress,
  clock: ReturnType<typeof sliceClock>,
  signal?: AbortSignal,
): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  try {
    const stream = await openEntry(zip, p.entry);
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      signal?.throwIfAborted();
      chunks.push(chunk);
      progress.add(chunk.length);
      await clock.pause();
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    problems.add('clinical', `${p.name}: unreadable in the zip`);
    return undefined;
  }
  let value: unknown;
  try {
    // A file of several megabytes is parsed in slices; a key that could reach a prototype is refused.
    value = await parseJsonInSlices(Buffer.concat(chunks).toString('utf8'), () => {
      throw new Error('suspect key');
    });
  } catch {
    problems.add('clinical', `${p.name}: not JSON`);
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof (value as Record<string, unknown>).resourceType !== 'string') {
    problems.add('clinical', `${p.name}: not a FHIR resource`);
    return undefined;
  }
  return value as Record<string, unknown>;
}

/**
 * The readings kept. With 'day', one per measure per day: the latest of that day. A real reading
 * rather than an average, because the record says a value was measured on that day and an average
 * of blood pressures or heart rates is a value nobody measured; the latest, because it does not
 * depend on the order of the file and it is the reading a person would give when asked "what was
 * it that day". With 'none', every reading.
 */
class MeasurementCollector {
  readonly read = Object.fromEntries(MEASURE_LIST.map((m) => [m, 0])) as Record<BiometricMeasure, number>;
  readonly refused = Object.fromEntries(MEASURE_LIST.map((m) => [m, 0])) as Record<BiometricMeasure, number>;
  private readonly all: Array<AppleHealthMeasurement & { ms: number }> = [];
  private readonly byDay = new Map<string, AppleHealthMeasurement & { ms: number }>();

  constructor(
    private readonly thin: 'day' | 'none',
    private readonly dayOf: (ms: number) => string,
    private readonly max: number,
  ) {}

  add(measure: BiometricMeasure, value: number, ms: number, diastolic?: number) {
    const day = this.dayOf(ms);
    if (this.thin === 'day') {
      const key = `${measure}|${day}`;
      const kept = this.byDay.get(key);
      // Of two readings at the same instant, the later in the file (Apple's own order) wins.
      if (kept && kept.ms > ms) return;
      if (!kept && this.byDay.size >= this.max) throw this.tooMany();
      this.byDay.set(key, this.make(measure, value, ms, day, diastolic));
    } else {
      if (this.all.length >= this.max) throw this.tooMany();
      this.all.push(this.make(measure, value, ms, day, diastolic));
    }
  }

  private tooMany() {
    return new AppleHealthExportError('too_many', `more than ${this.max} readings ${this.thin === 'day' ? 'even one a day' : 'to keep every one'}`);
  }

  private make(measure: BiometricMeasure, value: number, ms: number, day: string, diastolic?: number) {
    return { measure, value, ...(diastolic !== undefined ? { diastolic } : {}), unit: storedUnit(measure), at: new Date(ms).toISOString(), day, ms };
  }

  /** By time, then measure; without the sorting key. */
  result(): AppleHealthMeasurement[] {
    const list = this.thin === 'day' ? [...this.byDay.values()] : this.all;
    list.sort((a, b) => a.ms - b.ms || (a.measure < b.measure ? -1 : a.measure > b.measure ? 1 : 0));
    return list.map(({ ms: _ms, ...m }) => m);
  }
}

/** A blood pressure correlation being read: its time and the values of its systolic and diastolic records. */
interface OpenCorrelation {
  start: string;
  systolic?: { value: string; unit: string };
  diastolic?: { value: string; unit: string };
}

async function readHealthXml(
  zip: ZipFile,
  p: Planned,
  collector: MeasurementCollector,
  problems: Problems,
  progress: Progress,
  clock: ReturnType<typeof sliceClock>,
  signal?: AbortSignal,
): Promise<void> {
  // Positions are not tracked (they cost time on every character) and namespaces are not read.
  const parser = new SaxesParser({ position: false, xmlns: false });
  let correlation: OpenCorrelation | undefined;
  let xmlErrors = 0;
  let sawHealthData = false;

  const quantity = (measure: BiometricMeasure, value: string | undefined, unit: string | undefined, start: string | undefined, diastolic?: { value: string; unit: string }) => {
    collector.read[measure]++;
    const ms = start === undefined ? Number.NaN : parseAppleDate(start);
    if (value === undefined || unit === undefined || Number.isNaN(ms)) {
      collector.refused[measure]++;
      problems.add(`${measure}:value`, `${measure}: a reading without a value, unit or date`);
      return;
    }
    const converted = toStoredValue(measure, value, unit);
    if ('problem' in converted) {
      collector.refused[measure]++;
      problems.add(`${measure}:${converted.problem}`, converted.problem === 'unit' ? `${measure}: unknown unit ${JSON.stringify(unit.slice(0, 40))}` : `${measure}: ${converted.problem === 'range' ? 'out of range' : 'not a number'} (${value.slice(0, 20)} ${unit.slice(0, 20)})`);
      return;
    }
    if (diastolic) {
      const low = toStoredValue('blood_pressure', diastolic.value, diastolic.unit);
      // The biometrics category takes a diastolic value of 20 to 200, below the systolic one.
      if ('problem' in low || low.value < 20 || low.value > 200 || low.value >= converted.value) {
        collector.refused[measure]++;
        problems.add('blood_pressure:diastolic', `blood_pressure: diastolic ${diastolic.value.slice(0, 20)} refused`);
        return;
      }
      collector.add(measure, converted.value, ms, low.value);
    } else {
      collector.add(measure, converted.value, ms);
    }
  };

  parser.on('opentag', (tag: SaxesTagPlain) => {
    // The file is mostly other records (steps, energy, distance): one lookup and they are gone.
    if (tag.name === 'Record') {
      const type = tag.attributes.type;
      if (type === undefined) return;
      const measure = APPLE_QUANTITY_TYPES.get(type);
      if (measure !== undefined) {
        quantity(measure, tag.attributes.value, tag.attributes.unit, tag.attributes.startDate);
        return;
      }
      if (correlation && (type === APPLE_SYSTOLIC || type === APPLE_DIASTOLIC)) {
        const part = { value: tag.attributes.value ?? '', unit: tag.attributes.unit ?? '' };
        if (type === APPLE_SYSTOLIC) correlation.systolic = part;
        else correlation.diastolic = part;
      }
      return;
    }
    if (tag.name === 'Correlation') {
      if (tag.attributes.type === APPLE_BLOOD_PRESSURE) correlation = { start: tag.attributes.startDate ?? '' };
      return;
    }
    if (tag.name === 'HealthData') sawHealthData = true;
  });
  parser.on('closetag', (tag) => {
    if (tag.name !== 'Correlation' || !correlation) return;
    const c = correlation;
    correlation = undefined;
    if (!c.systolic || !c.diastolic) {
      collector.read.blood_pressure++;
      collector.refused.blood_pressure++;
      problems.add('blood_pressure:part', 'blood_pressure: a reading without its systolic or diastolic value');
      return;
    }
    quantity('blood_pressure', c.systolic.value, c.systolic.unit, c.start, c.diastolic);
  });
  parser.on('error', (error) => {
    // An XML mistake (Apple has shipped exports with some) costs the element, not the file.
    xmlErrors++;
    problems.add('xml', `${p.name}: ${error.message.slice(0, 120)}`);
  });

  const stream = await openEntry(zip, p.entry).catch((error: unknown) => {
    throw new AppleHealthExportError('not_zip', error instanceof Error ? error.message : String(error));
  });
  const decoder = new StringDecoder('utf8');
  try {
    // One chunk at a time: the inflater waits while a chunk is parsed (backpressure).
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      signal?.throwIfAborted();
      parser.write(decoder.write(chunk));
      progress.add(chunk.length);
      if (xmlErrors > MAX_XML_ERRORS) {
        problems.add('xml-stop', `${p.name}: too many XML errors, the rest was not read`);
        break;
      }
      await clock.pause();
    }
    if (xmlErrors <= MAX_XML_ERRORS) parser.write(decoder.end()).close();
  } catch (error) {
    if (signal?.aborted || error instanceof AppleHealthExportError) throw error;
    // A damaged entry (a wrong CRC, a size that lies, a bad deflate stream) keeps what was read.
    problems.add('zip', `${p.name}: ${error instanceof Error ? error.message.slice(0, 120) : 'unreadable'}; read up to there`);
  } finally {
    stream.destroy();
  }
  if (!sawHealthData) problems.add('xml', `${p.name}: no <HealthData> element`);
}
