/**
 * Apple Health exports for the tests: a small zip writer (streamed, deflated; no zip library is
 * installed, and the reader is what is under test) and a generator of a realistic `export.zip`:
 * Apple's header, days of step counts and the seven measures in the units a phone may write,
 * blood pressure correlations, and `clinical-records/` with a few FHIR resources and a broken one.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createDeflateRaw, crc32 } from 'node:zlib';

interface CentralEntry {
  name: Buffer;
  crc: number;
  compressed: number;
  uncompressed: number;
  offset: number;
  method: number;
}

/**
 * A zip written as it goes: each entry's sizes and CRC follow its data (a data descriptor, flag
 * bit 3), as phones and streaming zippers write them, so no entry is held in memory. No ZIP64:
 * the tests' files stay well under 4 GB.
 */
export class ZipWriter {
  private readonly out: WriteStream;
  private offset = 0;
  private readonly central: CentralEntry[] = [];

  constructor(path: string) {
    this.out = createWriteStream(path);
  }

  private async write(buffer: Buffer) {
    this.offset += buffer.length;
    if (!this.out.write(buffer)) await once(this.out, 'drain');
  }

  /** One entry from a string, a buffer or an (async) iterable of them; `store` keeps it uncompressed. */
  async add(name: string, content: string | Buffer | Iterable<string | Buffer> | AsyncIterable<string | Buffer>, options: { store?: boolean } = {}) {
    const nameBytes = Buffer.from(name, 'utf8');
    const method = options.store ? 0 : 8;
    const offset = this.offset;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0808, 6); // bit 3: sizes after the data; bit 11: the name is UTF-8.
    header.writeUInt16LE(method, 8);
    header.writeUInt16LE(0, 10);
    header.writeUInt16LE((2023 - 1980) << 9 | (1 << 5) | 1, 12);
    header.writeUInt16LE(nameBytes.length, 26);
    await this.write(header);
    await this.write(nameBytes);

    let crc = 0;
    let uncompressed = 0;
    let compressed = 0;
    const pieces = typeof content === 'string' || Buffer.isBuffer(content) ? [content] : content;
    if (method === 0) {
      for await (const piece of pieces) {
        const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
        crc = crc32(bytes, crc);
        uncompressed += bytes.length;
        compressed += bytes.length;
        await this.write(bytes);
      }
    } else {
      // Level 1: the tests' large file is written in about a second; the ratio matters little.
      const deflate = createDeflateRaw({ level: 1 });
      const drained = (async () => {
        for await (const chunk of deflate as AsyncIterable<Buffer>) {
          compressed += chunk.length;
          await this.write(chunk);
        }
      })();
      for await (const piece of pieces) {
        const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
        crc = crc32(bytes, crc);
        uncompressed += bytes.length;
        if (!deflate.write(bytes)) await once(deflate, 'drain');
      }
      deflate.end();
      await drained;
    }
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(uncompressed, 12);
    await this.write(descriptor);
    this.central.push({ name: nameBytes, crc: crc >>> 0, compressed, uncompressed, offset, method });
  }

  /** The central directory and its end record; then the file is closed. */
  async finish() {
    const start = this.offset;
    for (const e of this.central) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4);
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(0x0808, 8);
      h.writeUInt16LE(e.method, 10);
      h.writeUInt16LE((2023 - 1980) << 9 | (1 << 5) | 1, 14);
      h.writeUInt32LE(e.crc, 16);
      h.writeUInt32LE(e.compressed, 20);
      h.writeUInt32LE(e.uncompressed, 24);
      h.writeUInt16LE(e.name.length, 28);
      h.writeUInt32LE(e.offset, 42);
      await this.write(h);
      await this.write(e.name);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.central.length, 8);
    end.writeUInt16LE(this.central.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
    this.out.end();
    await once(this.out, 'close');
  }
}

/** Apple's header: the XML declaration, the DOCTYPE with its internal subset, ExportDate and Me. */
export const EXPORT_HEADER = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 13 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType           CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType CDATA #REQUIRED
  HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT Correlation ((MetadataEntry|Record)*)>
<!ATTLIST Correlation
  type          CDATA #REQUIRED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
]>
<HealthData locale="en_GR">
 <ExportDate value="2024-01-02 09:00:00 +0200"/>
 <Me HKCharacteristicTypeIdentifierDateOfBirth="1980-05-04" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>
`;
export const EXPORT_FOOTER = '</HealthData>\n';

const DEVICE = 'device="&lt;&lt;HKDevice: 0x283a4c1e0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:9.1&gt;"';

/** A `<Record>` as Apple writes it (a local wall-clock date with its offset). */
export function appleRecord(type: string, value: string | number, unit: string, date: string, extra = ''): string {
  // Apple's molar units (`mmol<180.1558800000541>/L`) come escaped, as XML wants them.
  const escaped = unit.replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return ` <Record type="${type}" sourceName="Maria’s Apple Watch" sourceVersion="9.1" ${DEVICE} unit="${escaped}" creationDate="${date}" startDate="${date}" endDate="${date}" value="${value}"${extra ? `>\n${extra}  </Record>` : '/>'}\n`;
}

/** A blood pressure correlation with its two records (which Apple also writes on their own). */
export function appleBloodPressure(systolic: number, diastolic: number, date: string): string {
  return (
    ` <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Withings" sourceVersion="6.2" creationDate="${date}" startDate="${date}" endDate="${date}">\n` +
    `  <MetadataEntry key="HKWasUserEntered" value="1"/>\n` +
    ` ${appleRecord('HKQuantityTypeIdentifierBloodPressureSystolic', systolic, 'mmHg', date)}` +
    ` ${appleRecord('HKQuantityTypeIdentifierBloodPressureDiastolic', diastolic, 'mmHg', date)}` +
    ` </Correlation>\n`
  );
}

/** An Apple date: the wall clock at `offsetMinutes` from UTC, for an instant. */
export function appleDate(ms: number, offsetMinutes = 120): string {
  const wall = new Date(ms + offsetMinutes * 60_000).toISOString();
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${wall.slice(0, 10)} ${wall.slice(11, 19)} ${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

export const SAMPLE_CLINICAL: Record<string, object> = {
  'AllergyIntolerance-1A2B.json': {
    resourceType: 'AllergyIntolerance',
    id: '1A2B',
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
    code: { coding: [{ system: 'http://snomed.info/sct', code: '91936005', display: 'Allergy to penicillin' }], text: 'Penicillin' },
    recordedDate: '2019-04-02',
  },
  'Condition-3C4D.json': {
    resourceType: 'Condition',
    id: '3C4D',
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
    code: { coding: [{ system: 'http://snomed.info/sct', code: '38341003', display: 'Hypertension' }], text: 'Hypertension' },
    onsetDateTime: '2018-06-01',
  },
  'Immunization-5E6F.json': {
    resourceType: 'Immunization',
    id: '5E6F',
    status: 'completed',
    vaccineCode: { coding: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '140', display: 'Influenza, seasonal, injectable' }] },
    occurrenceDateTime: '2023-10-12',
  },
  'Observation-7A8B.json': {
    resourceType: 'Observation',
    id: '7A8B',
    status: 'final',
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '4548-4', display: 'Hemoglobin A1c' }] },
    valueQuantity: { value: 5.9, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
    effectiveDateTime: '2023-09-01',
  },
};
export const BROKEN_CLINICAL = 'Observation-broken.json';

/** Clinical records as an older provider's API gave them (FHIR DSTU2, as Apple's first exports hold). */
export const DSTU2_CLINICAL: Record<string, object> = {
  'MedicationOrder-9C0D.json': {
    resourceType: 'MedicationOrder',
    id: '9C0D',
    dateWritten: '2017-03-14',
    status: 'active',
    patient: { reference: 'Patient/Z' },
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '197361', display: 'Amlodipine 5 MG Oral Tablet' }], text: 'Amlodipine 5 MG Oral Tablet' },
    dosageInstruction: [{ text: 'Take 1 tablet by mouth once daily', timing: { repeat: { frequency: 1, period: 1, periodUnits: 'd' } }, doseQuantity: { value: 1, unit: 'tablet' } }],
  },
  'Condition-1E2F.json': {
    resourceType: 'Condition',
    id: '1E2F',
    patient: { reference: 'Patient/Z' },
    code: { coding: [{ system: 'http://snomed.info/sct', code: '44054006', display: 'Diabetes mellitus type 2' }], text: 'Type 2 diabetes' },
    clinicalStatus: 'active',
    verificationStatus: 'confirmed',
    onsetDateTime: '2016-08-20',
    dateRecorded: '2016-08-22',
  },
};

/** Readings a day of each measure in a generated export (blood pressure: correlations). */
export const READINGS_PER_DAY = { weight: 2, height: 1, heart_rate: 5, glucose: 3, oxygen_saturation: 3, temperature: 2, blood_pressure: 2 } as const;

export interface ExportOptions {
  /** Days of readings, from 2023-01-01 (Athens, +0200). */
  days: number;
  /** Step count records a day (the noise Apple exports are made of). */
  stepsPerDay?: number;
  /** Without clinical records. */
  noClinical?: boolean;
  /** With DSTU2 clinical records too. */
  dstu2?: boolean;
  /** The folder inside the zip (Apple's is `apple_health_export/`). */
  folder?: string;
  /** The XML file's name (a phone in Spanish writes `exportación.xml`). */
  xmlName?: string;
}

const DAY = 86_400_000;
const START = Date.UTC(2023, 0, 1) - 2 * 3_600_000; // 2023-01-01 00:00 in Athens.

/** The body of export.xml, a day at a time (a generator, so the file is written as it is made). */
export function* exportXml(options: ExportOptions): Generator<string> {
  yield EXPORT_HEADER;
  const steps = options.stepsPerDay ?? 50;
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  for (let d = 0; d < options.days; d++) {
    const day = START + d * DAY;
    const parts: string[] = [];
    // Step counts across the waking day, each a few minutes long.
    for (let i = 0; i < steps; i++) {
      const at = day + 6 * 3_600_000 + Math.floor((i * 16 * 3_600_000) / steps);
      const end = appleDate(at + 60_000);
      parts.push(
        ` <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Maria’s iPhone" sourceVersion="16.1" device="&lt;&lt;HKDevice: 0x281e6c0a0&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone12,1, software:16.1&gt;" unit="count" creationDate="${end}" startDate="${appleDate(at)}" endDate="${end}" value="${Math.floor(random() * 900)}"/>\n`,
      );
    }
    const at = (hour: number) => appleDate(day + hour * 3_600_000);
    const kg = 70 + random() * 3;
    parts.push(appleRecord('HKQuantityTypeIdentifierBodyMass', kg.toFixed(1), 'kg', at(7)));
    parts.push(appleRecord('HKQuantityTypeIdentifierBodyMass', (kg / 0.45359237).toFixed(1), 'lb', at(21)));
    const heights: Array<[number, string]> = [
      [172, 'cm'],
      [1.72, 'm'],
      [5.643, 'ft'],
      [67.72, 'in'],
    ];
    const [h, hUnit] = heights[d % 4]!;
    parts.push(appleRecord('HKQuantityTypeIdentifierHeight', h, hUnit, at(8)));
    for (let i = 0; i < READINGS_PER_DAY.heart_rate; i++)
      parts.push(appleRecord('HKQuantityTypeIdentifierHeartRate', 60 + Math.floor(random() * 40), 'count/min', at(8 + i * 3), '  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>\n'));
    parts.push(appleRecord('HKQuantityTypeIdentifierBloodGlucose', 95, 'mg/dL', at(7.5)));
    parts.push(appleRecord('HKQuantityTypeIdentifierBloodGlucose', 6.1, 'mmol<180.1558800000541>/L', at(13)));
    parts.push(appleRecord('HKQuantityTypeIdentifierBloodGlucose', 108, 'mg/dL', at(20)));
    for (let i = 0; i < READINGS_PER_DAY.oxygen_saturation; i++)
      parts.push(appleRecord('HKQuantityTypeIdentifierOxygenSaturation', (0.95 + random() * 0.04).toFixed(2), '%', at(2 + i * 6)));
    parts.push(appleRecord('HKQuantityTypeIdentifierBodyTemperature', 36.6, 'degC', at(9)));
    parts.push(appleRecord('HKQuantityTypeIdentifierBodyTemperature', 98.6, 'degF', at(19)));
    parts.push(appleBloodPressure(118, 76, at(8)));
    parts.push(appleBloodPressure(124, 81, at(20)));
    // Apple writes each part of a blood pressure on its own too; the reader reads them once.
    parts.push(appleRecord('HKQuantityTypeIdentifierBloodPressureSystolic', 124, 'mmHg', at(20)));
    parts.push(appleRecord('HKQuantityTypeIdentifierBloodPressureDiastolic', 81, 'mmHg', at(20)));
    // Other types the reader ignores.
    parts.push(appleRecord('HKQuantityTypeIdentifierActiveEnergyBurned', 12.5, 'kcal', at(10)));
    parts.push(appleRecord('HKCategoryTypeIdentifierSleepAnalysis', 'HKCategoryValueSleepAnalysisAsleepCore', '', at(1)));
    yield parts.join('');
  }
  yield EXPORT_FOOTER;
}

/** Writes a realistic export.zip at `path`; returns the XML's uncompressed size in bytes. */
export async function writeAppleHealthExport(path: string, options: ExportOptions): Promise<number> {
  const folder = options.folder ?? 'apple_health_export/';
  const zip = new ZipWriter(path);
  let xmlBytes = 0;
  const counted = function* () {
    for (const piece of exportXml(options)) {
      xmlBytes += Buffer.byteLength(piece);
      yield piece;
    }
  };
  await zip.add(`${folder}${options.xmlName ?? 'export.xml'}`, counted());
  await zip.add(`${folder}export_cda.xml`, '<?xml version="1.0" encoding="UTF-8"?>\n<ClinicalDocument xmlns="urn:hl7-org:v3"></ClinicalDocument>\n');
  if (!options.noClinical) {
    for (const [name, resource] of Object.entries(SAMPLE_CLINICAL)) await zip.add(`${folder}clinical-records/${name}`, JSON.stringify(resource, null, 2));
    await zip.add(`${folder}clinical-records/${BROKEN_CLINICAL}`, '{"resourceType": "Observation", "status": ');
    if (options.dstu2) for (const [name, resource] of Object.entries(DSTU2_CLINICAL)) await zip.add(`${folder}clinical-records/${name}`, JSON.stringify(resource));
  }
  await zip.add(`${folder}workout-routes/route_2023-01-01_7.02am.gpx`, '<?xml version="1.0"?><gpx></gpx>');
  await zip.finish();
  return xmlBytes;
}

/** A zip of the given files (name → content), for the hand-written cases. */
export async function writeZip(path: string, files: Record<string, string | Buffer>): Promise<void> {
  const zip = new ZipWriter(path);
  for (const [name, content] of Object.entries(files)) await zip.add(name, content);
  await zip.finish();
}

// Run as a script (`node --import tsx apple-health-samples.ts <zip> <days> <steps a day>`), it writes
// a generated export and prints the XML's size: the memory test writes its large file in another
// process, so that what the writing used is not counted against the reader.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, days, steps] = process.argv.slice(2);
  const bytes = await writeAppleHealthExport(file!, { days: Number(days), stepsPerDay: Number(steps) });
  process.stdout.write(`${bytes}\n`);
}
