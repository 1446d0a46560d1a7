import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appleBloodPressure,
  appleRecord,
  BROKEN_CLINICAL,
  EXPORT_FOOTER,
  EXPORT_HEADER,
  READINGS_PER_DAY,
  SAMPLE_CLINICAL,
  writeAppleHealthExport,
  writeZip,
} from '../../../../test/apple-health-samples';
import { AppleHealthExportError, readAppleHealthExport, type BiometricMeasure } from './apple-health';
import { dayInZone, parseAppleDate, toStoredValue } from './apple-health-measures';
import { holdTimer } from '../../../../test/loop-hold';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'apple-health-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const xml = (body: string) => EXPORT_HEADER + body + EXPORT_FOOTER;
const zipOf = async (name: string, files: Record<string, string | Buffer>) => {
  const file = path.join(dir, name);
  await writeZip(file, files);
  return file;
};

describe('Apple Health units', () => {
  it('converts each measure to the unit the biometrics category stores', () => {
    expect(toStoredValue('weight', '72.5', 'kg')).toEqual({ value: 72.5 });
    expect(toStoredValue('weight', '160', 'lb')).toEqual({ value: 72.57 });
    expect(toStoredValue('weight', '11', 'st')).toEqual({ value: 69.85 });
    expect(toStoredValue('height', '172', 'cm')).toEqual({ value: 1.72 });
    expect(toStoredValue('height', '5.643', 'ft')).toEqual({ value: 1.72 });
    expect(toStoredValue('height', '67.72', 'in')).toEqual({ value: 1.72 });
    expect(toStoredValue('height', '1.72', 'm')).toEqual({ value: 1.72 });
    expect(toStoredValue('heart_rate', '71.6', 'count/min')).toEqual({ value: 72 });
    expect(toStoredValue('glucose', '95', 'mg/dL')).toEqual({ value: 5.27 });
    expect(toStoredValue('glucose', '6.1', 'mmol<180.1558800000541>/L')).toEqual({ value: 6.1 });
    expect(toStoredValue('oxygen_saturation', '0.97', '%')).toEqual({ value: 97 });
    expect(toStoredValue('temperature', '98.6', 'degF')).toEqual({ value: 37 });
    expect(toStoredValue('temperature', '36.6', 'degC')).toEqual({ value: 36.6 });
    expect(toStoredValue('blood_pressure', '120', 'mmHg')).toEqual({ value: 120 });
  });

  it('refuses an unknown unit, a value that is not a number and one out of range', () => {
    expect(toStoredValue('weight', '70', 'oz')).toEqual({ problem: 'unit' });
    expect(toStoredValue('weight', 'abc', 'kg')).toEqual({ problem: 'value' });
    expect(toStoredValue('weight', '', 'kg')).toEqual({ problem: 'value' });
    expect(toStoredValue('weight', '750', 'kg')).toEqual({ problem: 'range' });
    // A saturation already written as a percentage (97, not 0.97) would be 9700 %: refused, not guessed.
    expect(toStoredValue('oxygen_saturation', '97', '%')).toEqual({ problem: 'range' });
  });

  it("reads Apple's dates and finds their day in a time zone, across a change of summer time", () => {
    expect(new Date(parseAppleDate('2023-03-10 23:30:00 +0200')).toISOString()).toBe('2023-03-10T21:30:00.000Z');
    expect(new Date(parseAppleDate('2023-03-10 23:30:00 -0530')).toISOString()).toBe('2023-03-11T05:00:00.000Z');
    expect(parseAppleDate('yesterday')).toBeNaN();
    const athens = dayInZone('Europe/Athens');
    const utc = dayInZone('UTC');
    const late = parseAppleDate('2023-03-11 00:15:00 +0200');
    expect(athens(late)).toBe('2023-03-11');
    expect(utc(late)).toBe('2023-03-10');
    // Summer time began in Athens at 03:00 on 26 March 2023 (+0300 after).
    expect(athens(parseAppleDate('2023-03-26 23:30:00 +0300'))).toBe('2023-03-26');
    expect(athens(parseAppleDate('2023-03-26 00:30:00 +0200'))).toBe('2023-03-26');
    expect(athens(parseAppleDate('2023-03-25 23:59:00 +0200'))).toBe('2023-03-25');
  });
});

describe('readAppleHealthExport', () => {
  // First, so that the memory it measures is not what earlier tests left behind.
  it('reads a 150 MB export.xml in little memory, the event loop free', { timeout: 60_000 }, async () => {
    const file = path.join(dir, 'large.zip');
    const started = Date.now();
    // Written by another process: the memory it takes to write is not the reader's.
    const samples = fileURLToPath(new URL('../../../../test/apple-health-samples.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', samples, file, '365', '1100']);
    const xmlBytes = Number(stdout.trim());
    const written = Date.now() - started;
    expect(xmlBytes).toBeGreaterThan(140 * 1024 * 1024);

    const heap = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.external + m.arrayBuffers;
    };
    const baseline = process.memoryUsage().rss;
    const heapBaseline = heap();
    let peak = baseline;
    let heapPeak = heapBaseline;
    // How late the timer came (wall clock), and how much of that lateness the loop was held
    // (test/loop-hold.ts: bounded by the CPU time this process used, a slice of inflating on
    // libuv's pool included).
    let lateness = 0;
    let held = 0;
    let last = performance.now();
    let since = holdTimer();
    const timer = setInterval(() => {
      const now = performance.now();
      lateness = Math.max(lateness, now - last - 25);
      held = Math.max(held, since() - 25);
      last = now;
      since = holdTimer();
      peak = Math.max(peak, process.memoryUsage().rss);
      heapPeak = Math.max(heapPeak, heap());
    }, 25);
    const readStart = Date.now();
    let result;
    try {
      result = await readAppleHealthExport(file, { timeZone: 'Europe/Athens' });
    } finally {
      clearInterval(timer);
    }
    const readMs = Date.now() - readStart;
    const growthMb = (peak - baseline) / 1024 / 1024;
    const heapGrowthMb = (heapPeak - heapBaseline) / 1024 / 1024;
    console.log(
      `apple-health large export: ${(xmlBytes / 1024 / 1024).toFixed(0)} MB XML (${((await stat(file)).size / 1024 / 1024).toFixed(1)} MB zip, written in ${written} ms), ` +
        `read in ${readMs} ms; peak RSS growth ${growthMb.toFixed(0)} MB (from ${(baseline / 1024 / 1024).toFixed(0)} MB), heap and buffers ${heapGrowthMb.toFixed(0)} MB; timer at most ${lateness.toFixed(0)} ms late, of which at most ${held.toFixed(0)} ms on our CPU`,
    );
    expect(result.counts.measures.heart_rate).toEqual({ read: 5 * 365, kept: 365, refused: 0 });
    expect(result.counts.measures.blood_pressure.kept).toBe(365);
    expect(growthMb).toBeLessThan(150);
    expect(held).toBeLessThan(100);
    expect(lateness).toBeLessThan(1000);
    await rm(file);
  });

  it('thins to the latest reading of each day in the reader’s time zone (23:30 vs 00:15 in Athens)', async () => {
    const file = await zipOf('day-edge.zip', {
      'apple_health_export/export.xml': xml(
        appleRecord('HKQuantityTypeIdentifierBodyMass', '70.0', 'kg', '2023-03-10 08:00:00 +0200') +
          appleRecord('HKQuantityTypeIdentifierBodyMass', '71.0', 'kg', '2023-03-10 23:30:00 +0200') +
          appleRecord('HKQuantityTypeIdentifierBodyMass', '158.7', 'lb', '2023-03-11 00:15:00 +0200'),
      ),
    });
    const athens = await readAppleHealthExport(file, { timeZone: 'Europe/Athens' });
    expect(athens.measurements).toEqual([
      { measure: 'weight', value: 71, unit: 'kg', at: '2023-03-10T21:30:00.000Z', day: '2023-03-10' },
      { measure: 'weight', value: 71.99, unit: 'kg', at: '2023-03-10T22:15:00.000Z', day: '2023-03-11' },
    ]);
    expect(athens.counts.measures.weight).toEqual({ read: 3, kept: 2, refused: 0 });
    expect(athens.counts.dateRange).toEqual({ from: '2023-03-10', to: '2023-03-11' });

    // In UTC all three are on the 10th: the latest (22:15 UTC) is the one kept.
    const utc = await readAppleHealthExport(file);
    expect(utc.measurements).toEqual([{ measure: 'weight', value: 71.99, unit: 'kg', at: '2023-03-10T22:15:00.000Z', day: '2023-03-10' }]);

    const all = await readAppleHealthExport(file, { thin: 'none', timeZone: 'Europe/Athens' });
    expect(all.measurements.map((m) => m.value)).toEqual([70, 71, 71.99]);
    expect(all.clinical).toEqual([]);
  });

  it('reads a blood pressure correlation as one measurement with its diastolic value, not its parts again', async () => {
    const file = await zipOf('bp.zip', {
      'apple_health_export/export.xml': xml(
        appleBloodPressure(128, 84, '2023-05-02 08:10:00 +0300') +
          appleRecord('HKQuantityTypeIdentifierBloodPressureSystolic', 128, 'mmHg', '2023-05-02 08:10:00 +0300') +
          appleRecord('HKQuantityTypeIdentifierBloodPressureDiastolic', 84, 'mmHg', '2023-05-02 08:10:00 +0300') +
          // A diastolic above its systolic is refused, as the record's own rule would.
          appleBloodPressure(80, 95, '2023-05-03 08:10:00 +0300'),
      ),
    });
    const result = await readAppleHealthExport(file, { thin: 'none', timeZone: 'Europe/Athens' });
    expect(result.measurements).toEqual([{ measure: 'blood_pressure', value: 128, diastolic: 84, unit: 'mmHg', at: '2023-05-02T05:10:00.000Z', day: '2023-05-02' }]);
    expect(result.counts.measures.blood_pressure).toEqual({ read: 2, kept: 1, refused: 1 });
    expect(result.counts.problems.some((p) => p.includes('diastolic'))).toBe(true);
  });

  it('reads a generated export: every measure, thinned or not, and the clinical records with the broken one counted', async () => {
    const file = path.join(dir, 'export.zip');
    await writeAppleHealthExport(file, { days: 4, stepsPerDay: 30 });
    const progress: Array<[number, number]> = [];
    const result = await readAppleHealthExport(file, { timeZone: 'Europe/Athens', onProgress: (done, total) => progress.push([done, total]) });

    expect(result.clinical.map((r) => r.resourceType).sort()).toEqual(['AllergyIntolerance', 'Condition', 'Immunization', 'Observation']);
    expect(result.clinical).toContainEqual(SAMPLE_CLINICAL['Condition-3C4D.json']);
    expect(result.counts.clinical).toEqual({ read: 4, failed: 1 });
    expect(result.counts.problems).toContain(`clinical-records/${BROKEN_CLINICAL}: not JSON`);

    for (const [measure, perDay] of Object.entries(READINGS_PER_DAY)) {
      expect(result.counts.measures[measure as BiometricMeasure], measure).toEqual({ read: perDay * 4, kept: 4, refused: 0 });
    }
    expect(result.counts.dateRange).toEqual({ from: '2023-01-01', to: '2023-01-04' });
    const firstDay = Object.fromEntries(result.measurements.filter((m) => m.day === '2023-01-01').map((m) => [m.measure, m]));
    // The latest of the day: 98.6 °F at 19:00, 108 mg/dL at 20:00, the 20:00 blood pressure.
    expect(firstDay.temperature).toMatchObject({ value: 37, unit: '°C', at: '2023-01-01T17:00:00.000Z' });
    expect(firstDay.glucose).toMatchObject({ value: 5.99, unit: 'mmol/L' });
    expect(firstDay.blood_pressure).toMatchObject({ value: 124, diastolic: 81, unit: 'mmHg' });
    expect(firstDay.height).toMatchObject({ value: 1.72, unit: 'm' });
    expect(firstDay.oxygen_saturation?.unit).toBe('%');
    expect(firstDay.oxygen_saturation?.value).toBeGreaterThanOrEqual(95);

    const total = progress.at(-1)![1];
    expect(progress.at(-1)).toEqual([total, total]);
    expect(total).toBeGreaterThan(0);

    const all = await readAppleHealthExport(file, { thin: 'none' });
    const every = Object.values(READINGS_PER_DAY).reduce((a, b) => a + b, 0) * 4;
    expect(all.measurements).toHaveLength(every);

    // A bound on the readings kept: exactly that many is read; one more stops the reading, typed.
    expect((await readAppleHealthExport(file, { thin: 'none', maxMeasurements: every })).measurements).toHaveLength(every);
    await expect(readAppleHealthExport(file, { thin: 'none', maxMeasurements: every - 1 })).rejects.toMatchObject({ name: 'AppleHealthExportError', code: 'too_many' });
    // Thinned, the same readings of a day count once.
    expect((await readAppleHealthExport(file, { maxMeasurements: 7 * 4 })).measurements).toHaveLength(28);
    await expect(readAppleHealthExport(file, { maxMeasurements: 7 * 4 - 1 })).rejects.toMatchObject({ code: 'too_many' });
  });

  it('finds a localised export file at the zip’s root by its <HealthData> root', async () => {
    const file = path.join(dir, 'es.zip');
    await writeAppleHealthExport(file, { days: 2, stepsPerDay: 5, folder: '', xmlName: 'exportación.xml', noClinical: true });
    const result = await readAppleHealthExport(file);
    expect(result.counts.measures.heart_rate).toEqual({ read: 10, kept: 2, refused: 0 });
  });

  it('refuses a file that is not a zip, and a zip without health data, with typed errors', async () => {
    const notZip = path.join(dir, 'not.zip');
    await writeFile(notZip, 'PK but not really a zip file at all');
    await expect(readAppleHealthExport(notZip)).rejects.toMatchObject({ name: 'AppleHealthExportError', code: 'not_zip' });

    const empty = await zipOf('empty.zip', { 'photos/cat.jpg': Buffer.from([0xff, 0xd8, 0xff]), 'notes.xml': '<notes/>' });
    const error = await readAppleHealthExport(empty).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppleHealthExportError);
    expect(error).toMatchObject({ code: 'no_health_data' });
  });

  it('skips an entry that climbs out of the folder, and caps what is inflated', async () => {
    const file = await zipOf('evil.zip', {
      'apple_health_export/clinical-records/../../../etc/passwd.json': '{"resourceType":"Patient"}',
      'apple_health_export/export.xml': xml(appleRecord('HKQuantityTypeIdentifierHeartRate', 61, 'count/min', '2023-01-01 08:00:00 +0200')),
    });
    const result = await readAppleHealthExport(file);
    expect(result.clinical).toEqual([]);
    expect(result.counts.measures.heart_rate.kept).toBe(1);
    expect(result.counts.problems.some((p) => p.includes('outside the export'))).toBe(true);

    await expect(readAppleHealthExport(file, { maxUncompressedBytes: 1000 })).rejects.toMatchObject({ code: 'too_large' });
  });

  it('goes on after an XML mistake in the file, counting it', async () => {
    const file = await zipOf('mistake.zip', {
      'apple_health_export/export.xml': xml(
        appleRecord('HKQuantityTypeIdentifierHeartRate', 61, 'count/min', '2023-01-01 08:00:00 +0200') +
          ' <Record type="HKQuantityTypeIdentifierStepCount" value="1" value="2" startDate="2023-01-01 09:00:00 +0200"/>\n' +
          appleRecord('HKQuantityTypeIdentifierHeartRate', 64, 'count/min', '2023-01-02 08:00:00 +0200') +
          appleRecord('HKQuantityTypeIdentifierHeartRate', 'fast', 'count/min', '2023-01-03 08:00:00 +0200'),
      ),
    });
    const result = await readAppleHealthExport(file);
    expect(result.measurements.map((m) => m.value)).toEqual([61, 64]);
    expect(result.counts.measures.heart_rate).toEqual({ read: 3, kept: 2, refused: 1 });
    expect(result.counts.problems.some((p) => p.startsWith('export.xml: '))).toBe(true);
  });

  it('stops when aborted', async () => {
    const file = path.join(dir, 'abort.zip');
    await writeAppleHealthExport(file, { days: 60, stepsPerDay: 200, noClinical: true });
    const controller = new AbortController();
    const reading = readAppleHealthExport(file, {
      signal: controller.signal,
      onProgress: (done, total) => {
        if (done > 0 && done < total) controller.abort(new Error('stop'));
      },
    });
    await expect(reading).rejects.toThrow('stop');
  });
});
