/**
 * The demo patients' health records and Document Center: for each organisation's demo patient,
 * a medically coherent history in every category (data below, one function per patient), and the
 * one function that writes it (`seedDemoRecords`).
 *
 * Dates are relative to the day the seed runs (so that "last month" stays last month), except
 * the long-past ones; every record goes through the API's own rules (`checkRecord`) first, so
 * the seed can never write what the API would refuse.
 */
import { randomUUID } from 'node:crypto';
import {
  apiFieldNames,
  CATEGORY_KEYS,
  categoryDefinition,
  checkRecord,
  COMMON_FIELDS,
  type CategoryDefinition,
  type CategoryKey,
  type DatePart,
  type RecordValues,
} from '@healthbook/shared';
import { FILE_TYPES, sniffFile, type FileType } from '../../lib/files/file-types';
import { cleanFileName } from '../../modules/documents/documents.service';
import { DocumentsRepository } from '../../modules/documents/documents.repository';
import { RecordsRepository } from '../../modules/records/records.repository';
import type { PatientScope } from '../../modules/patients/patient-scope';
import { toStoredRecord } from '../../modules/records/records.service';
import type { Db } from '../client';
import { CHEST_XRAY, greyscalePng, KNEE_XRAY, onePagePdf, type Drawing, type PdfPage } from './demo-files';

// --- What a chart is made of -----------------------------------------------------------------

/** A medical date as the patient knows it; written as `<field>` and `<field>_part`. */
export interface When {
  readonly date: string | null;
  readonly part: DatePart;
}

/** A record's values by API field name; a medical date is a `When`. */
export type DemoRecord = Readonly<Record<string, string | number | boolean | null | When>>;

export type DemoFolder = 'Lab reports' | 'Imaging';

export interface DemoDocument {
  fileName: string;
  file: { pdf: PdfPage } | { png: Drawing };
  /** 'document': uploaded to the Document Center (filed in `folder`); 'attachment': uploaded to `record`. */
  origin: 'document' | 'attachment';
  folder?: DemoFolder;
  /** The record it is attached to: its category, title and, when the title is not unique, its date. */
  record?: { category: CategoryKey; title: string; date?: When };
}

/** One patient's history: records of every category (the type asks for all fifteen), and documents. */
export interface DemoChart {
  records: { readonly [K in CategoryKey]: readonly DemoRecord[] };
  documents: readonly DemoDocument[];
}

export const FOLDERS: readonly DemoFolder[] = ['Lab reports', 'Imaging'];

const exactly = (date: string): When => ({ date, part: 'day' });
const inMonth = (year: number, month: number): When => ({ date: `${year}-${String(month).padStart(2, '0')}-01`, part: 'month' });
const inYear = (year: number): When => ({ date: `${year}-01-01`, part: 'year' });
const PAST: When = { date: null, part: 'past' };

/** Dates counted back from the day the seed runs. */
export class DemoCalendar {
  constructor(readonly today: string) {}

  private parts(): [number, number, number] {
    const [y, m, d] = this.today.split('-').map(Number);
    return [y!, m!, d!];
  }

  /** The day `days` days ago as YYYY-MM-DD (for exact-date fields such as measured_on). */
  iso(days: number): string {
    const [y, m, d] = this.parts();
    return new Date(Date.UTC(y, m - 1, d - days)).toISOString().slice(0, 10);
  }

  daysAgo(days: number): When {
    return exactly(this.iso(days));
  }

  monthsAgo(months: number): When {
    const [y, m] = this.parts();
    return { date: new Date(Date.UTC(y, m - 1 - months, 1)).toISOString().slice(0, 10), part: 'month' };
  }

  yearsAgo(years: number): When {
    return inYear(this.parts()[0] - years);
  }

  /** A date as a laboratory prints it ("12 October 2026"). */
  long(when: When): string {
    if (!when.date) return 'unknown';
    return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${when.date}T00:00:00Z`));
  }
}

/** A laboratory result, for both the lab record and the printed report. */
interface LabResult {
  test: string;
  result: number;
  units: string;
  range: string;
  normal: boolean;
  conclusion?: string;
}

/** A printed reference range as the record's: "0.4 - 4.0", "below 5.0", "target below 7.0", "above 60". */
function rangeOf(range: string): { range_low: number | null; range_high: number | null; range_text: string | null } {
  const both = /^([0-9.]+) - ([0-9.]+)$/.exec(range);
  if (both) return { range_low: Number(both[1]), range_high: Number(both[2]), range_text: null };
  const end = /^(.*?)\s*(below|above) ([0-9.]+)$/.exec(range);
  if (!end) return { range_low: null, range_high: null, range_text: range };
  return { range_low: end[2] === 'above' ? Number(end[3]) : null, range_high: end[2] === 'below' ? Number(end[3]) : null, range_text: end[1] || null };
}

const labRecords = (date: When, results: readonly LabResult[]): DemoRecord[] =>
  results.map((r) => ({ test: r.test, test_date: date, result: r.result, units: r.units, ...rangeOf(r.range), within_normal_range: r.normal, conclusion: r.conclusion ?? null }));

const labLines = (results: readonly LabResult[]): string[] =>
  results.map((r) => `${r.test}: ${r.result} ${r.units}   (reference ${r.range})${r.normal ? '' : '   OUT OF RANGE'}`);

// --- Maria Papadopoulou (HealthBook+), born 17 March 1984 --------------------------------------
// Asthma since childhood, penicillin allergy (hives), Hashimoto's hypothyroidism on levothyroxine.

export function mariaChart(c: DemoCalendar): DemoChart {
  const annualReview = c.daysAgo(35);
  const bloodTests = c.daysAgo(40);
  const asthmaReview = c.daysAgo(95);
  const panel: LabResult[] = [
    { test: 'Thyroid-stimulating hormone (TSH)', result: 2.1, units: 'mIU/L', range: '0.4 - 4.0', normal: true, conclusion: 'Well controlled on levothyroxine 75 mcg.' },
    { test: 'Free thyroxine (FT4)', result: 15.8, units: 'pmol/L', range: '12 - 22', normal: true },
    { test: 'HbA1c', result: 5.4, units: '%', range: '4.0 - 5.6', normal: true, conclusion: 'No sign of diabetes.' },
    { test: 'Haemoglobin', result: 13.1, units: 'g/dL', range: '12.0 - 15.5', normal: true },
    { test: 'Total cholesterol', result: 4.7, units: 'mmol/L', range: 'below 5.0', normal: true },
    { test: 'Vitamin D (25-hydroxy)', result: 42, units: 'nmol/L', range: '50 - 125', normal: false, conclusion: 'Insufficient: vitamin D3 1000 IU daily advised.' },
  ];

  return {
    records: {
      condition: [
        { name: 'Asthma', verification_status: 'confirmed', start_date: inYear(1991), intensity: 3, verified: true, note: 'Mild persistent asthma since childhood; worse with colds and in spring.' },
        {
          name: "Hypothyroidism (Hashimoto's thyroiditis)",
          verification_status: 'confirmed',
          start_date: inMonth(2015, 3),
          verified: true,
          note: 'Raised TSH with positive anti-TPO antibodies. On levothyroxine since diagnosis.',
        },
        { name: 'Allergic rhinitis', verification_status: 'confirmed', start_date: PAST, intensity: 2, note: 'Hay fever from April to June (birch pollen), and dust mite all year.' },
        {
          name: 'Iron-deficiency anaemia',
          verification_status: 'confirmed',
          start_date: exactly('2012-09-20'),
          end_date: inMonth(2013, 1),
          intensity: 4,
          verified: true,
          note: 'Resolved after three months of ferrous sulfate.',
        },
      ],
      symptom: [
        { name: 'Wheezing at night', start_date: c.monthsAgo(4), end_date: c.monthsAgo(2), intensity: 4, frequency: 3, interval: 'week', note: 'After a cold; settled once the preventer inhaler was restarted.' },
        { name: 'Tiredness and feeling cold', start_date: inMonth(2014, 10), end_date: inMonth(2015, 6), intensity: 6, frequency: 1, interval: 'day', note: 'Before the thyroid diagnosis; better on levothyroxine.' },
        { name: 'Tension headache', start_date: c.daysAgo(12), intensity: 3, frequency: 2, interval: 'week', note: 'End of term at school; paracetamol helps.' },
      ],
      medication: [
        { code: 'Salbutamol inhaler (Ventolin)', ingredient: 'Salbutamol', dosage: 100, unit: 'mcg', start_date: inYear(1991), note: 'Reliever: one or two puffs when wheezy, and before exercise.' },
        { code: 'Beclometasone inhaler (Clenil)', ingredient: 'Beclometasone dipropionate', dosage: 200, unit: 'mcg', frequency: 12, repeat: 'hours', start_date: asthmaReview, note: 'Preventer: two puffs morning and evening; rinse mouth afterwards.' },
        { code: 'Levothyroxine', ingredient: 'Levothyroxine sodium', dosage: 75, unit: 'mcg', frequency: 1, repeat: 'days', start_date: inMonth(2015, 4), note: 'On waking, 30 minutes before breakfast. Raised from 50 mcg in 2017.' },
        { code: 'Amoxicillin', ingredient: 'Amoxicillin', dosage: 500, unit: 'mg', frequency: 8, repeat: 'hours', start_date: exactly('2009-05-11'), stopped: true, stop_reason: 'Hives on the second day: penicillin allergy.' },
        { code: 'Ferrous sulfate', ingredient: 'Ferrous sulfate', dosage: 200, unit: 'mg', frequency: 1, repeat: 'days', start_date: exactly('2012-09-20'), stopped: true, stop_reason: 'Course completed; anaemia resolved.' },
      ],
      allergy: [
        {
          code: 'Penicillin',
          clinical_status: 'active',
          verification_status: 'confirmed',
          type: 'allergy',
          category: 'medication',
          criticality: 'low',
          reaction: 'Hives (urticaria) and itching',
          reaction_severity: 'moderate',
          onset_date: exactly('2009-05-12'),
          last_occurrence: exactly('2009-05-12'),
          recorded_date: c.iso(400),
          recorder: 'Dr Nikos Georgiou',
          note: 'Avoid all penicillins (amoxicillin, co-amoxiclav). Azithromycin tolerated.',
        },
        {
          code: 'House dust mite',
          clinical_status: 'active',
          verification_status: 'confirmed',
          type: 'allergy',
          category: 'environment',
          criticality: 'low',
          reaction: 'Sneezing, itchy eyes and wheezing',
          reaction_severity: 'mild',
          onset_date: PAST,
          note: 'Positive skin prick test in 2010.',
        },
        { code: 'Birch pollen', clinical_status: 'active', verification_status: 'confirmed', type: 'allergy', category: 'environment', criticality: 'low', reaction: 'Hay fever in spring', reaction_severity: 'mild', onset_date: inYear(1996) },
      ],
      immunization: [
        { vaccine_name: 'Tetanus and diphtheria (Td) booster', manufacturer: 'Sanofi Pasteur', date: c.daysAgo(1150), occurrence: 'Health centre', reaction: 'Sore arm for a day' },
        { vaccine_name: 'COVID-19 (Comirnaty)', manufacturer: 'Pfizer-BioNTech', dose_number: 1, series_doses: 2, date: exactly('2021-05-18'), occurrence: 'Vaccination centre' },
        { vaccine_name: 'COVID-19 (Comirnaty)', manufacturer: 'Pfizer-BioNTech', dose_number: 2, series_doses: 2, date: exactly('2021-06-08'), occurrence: 'Vaccination centre' },
        { vaccine_name: 'COVID-19 booster (Comirnaty)', manufacturer: 'Pfizer-BioNTech', dose_number: 3, series_doses: 3, date: inMonth(2021, 12), occurrence: 'Pharmacy' },
        { vaccine_name: 'Influenza (seasonal)', date: c.monthsAgo(1), occurrence: 'Pharmacy', note: 'Every autumn, because of the asthma.' },
        { vaccine_name: 'Measles, mumps and rubella (MMR)', dose_number: 2, series_doses: 2, date: PAST, note: 'Childhood schedule.' },
      ],
      lab: labRecords(bloodTests, panel),
      diagnostic: [
        {
          test: 'Spirometry',
          body_site: 'Lungs',
          test_date: asthmaReview,
          result: 'FEV1 2.61 L (86% predicted), FEV1/FVC 0.74; FEV1 up 14% after salbutamol.',
          within_normal_range: false,
          conclusion: 'Reversible airway obstruction, consistent with asthma.',
        },
        {
          test: 'Thyroid ultrasound',
          body_site: 'Neck',
          test_date: exactly('2015-03-24'),
          result: 'Thyroid of normal size with diffusely heterogeneous echotexture; no nodules.',
          within_normal_range: false,
          conclusion: 'Appearance of chronic (Hashimoto) thyroiditis.',
        },
        { test: 'Chest X-ray', body_site: 'Chest', test_date: c.monthsAgo(26), result: 'Clear lung fields; normal heart size; no consolidation.', within_normal_range: true, conclusion: 'Normal chest radiograph.' },
      ],
      medicalvisit: [
        {
          reason: 'Annual review',
          date: annualReview,
          professional: 'Dr Nikos Georgiou, general practitioner',
          symptoms: 'No new complaints.',
          findings: 'Blood pressure 118/76, chest clear. Blood tests reviewed: thyroid normal, vitamin D low.',
          diagnosis: 'Hypothyroidism, well controlled; asthma, controlled.',
          treatment: 'Continue levothyroxine 75 mcg. Start vitamin D3 1000 IU daily.',
        },
        {
          reason: 'Asthma review',
          date: asthmaReview,
          professional: 'Eleni Markou, asthma nurse',
          symptoms: 'Wheezing at night since a cold.',
          findings: 'Spirometry: reversible obstruction. Inhaler technique good.',
          diagnosis: 'Asthma, partly controlled.',
          treatment: 'Restart beclometasone twice daily; review in three months.',
        },
        { reason: 'Endocrinology follow-up', date: c.monthsAgo(14), professional: 'Dr Anna Kostaki, endocrinologist', diagnosis: "Hashimoto's thyroiditis.", treatment: 'No change; TSH once a year.' },
        {
          reason: 'Counselling session',
          date: c.daysAgo(20),
          professional: 'Psychologist',
          symptoms: 'Stress at work, poor sleep.',
          treatment: 'Six sessions of cognitive behavioural therapy.',
          private: true,
        },
      ],
      surgery: [
        { procedure: 'Tonsillectomy', date: PAST, facility: "Children's hospital", outcome: 'successful', note: 'As a child; no problems since.' },
        { procedure: 'Laparoscopic appendectomy', date: inYear(2006), hospital_doctor: 'Dr Petros Ioannou', facility: 'General Hospital of Athens', outcome: 'successful' },
      ],
      procedure: [
        { procedure: 'Allergy skin prick test', date: exactly('2010-04-07'), facility: 'Allergy clinic', outcome: 'successful', note: 'Positive to house dust mite and birch pollen.' },
        { procedure: 'Wisdom tooth extraction', date: inYear(2003), facility: 'Dental clinic', outcome: 'successful' },
        { procedure: 'Cervical screening (smear test)', date: c.monthsAgo(18), hospital_doctor: 'Dr Sofia Dimou, gynaecologist', outcome: 'successful', note: 'Normal; next in three years.' },
      ],
      socialhistory: [
        { category: 'physical-activity', start_age: 30, frequency: 3, interval: 'week', note: 'Swimming and brisk walks; reliever inhaler before exercise when needed.' },
        { category: 'tobacco', note: 'Never smoked.' },
        { category: 'alcohol', frequency: 2, interval: 'month', note: 'A glass of wine on social occasions.' },
        { category: 'occupation', start_age: 24, note: 'Secondary school teacher.' },
      ],
      familyhistory: [
        { medical_issue: 'Hypothyroidism', relationship: 'mother', age_of_presentation: 42, outcome: 'On levothyroxine.' },
        { medical_issue: 'Type 2 diabetes', relationship: 'father', age_of_presentation: 58, outcome: 'Treated with tablets.' },
        { medical_issue: 'Asthma', relationship: 'brother', age_of_presentation: 5, outcome: 'Grew out of it as a teenager.' },
        { medical_issue: 'Breast cancer', relationship: 'grandmother', name: 'Maternal grandmother', deceased: true, age_of_presentation: 67, outcome: 'Died at 74.' },
      ],
      supplement: [
        { code: 'Vitamin D3', ingredient: 'Cholecalciferol', dosage: 1000, unit: 'iu', frequency: 1, repeat: 'days', start_date: annualReview, note: 'Advised after a low vitamin D result.' },
        { code: 'Calcium carbonate', dosage: 500, unit: 'mg', frequency: 1, repeat: 'days', start_date: c.monthsAgo(8), note: 'In the evening, at least four hours after levothyroxine.' },
        { code: 'Omega-3 fish oil', dosage: 1000, unit: 'mg', frequency: 1, repeat: 'days', start_date: c.yearsAgo(2) },
      ],
      travelhistory: [
        { country: 'IT', start_date: c.daysAgo(130), end_date: c.daysAgo(122), note: 'Rome and Florence: summer holiday.' },
        { country: 'ES', start_date: c.monthsAgo(15), end_date: c.monthsAgo(15), note: 'Barcelona: school trip with students.' },
        { country: 'GB', start_date: inYear(2008), end_date: inYear(2008), note: 'Summer English course in London.' },
      ],
      biometrics: [
        { measure: 'height', value: 1.65, measured_on: c.iso(35) },
        { measure: 'weight', value: 64.2, measured_on: c.iso(400) },
        { measure: 'weight', value: 63.5, measured_on: c.iso(35) },
        { measure: 'blood_pressure', value: 118, diastolic: 76, measured_on: c.iso(35) },
        { measure: 'heart_rate', value: 72, measured_on: c.iso(35) },
        { measure: 'oxygen_saturation', value: 97, measured_on: c.iso(95), note: 'At the asthma review.' },
      ],
    },
    documents: [
      {
        fileName: 'Blood test results.pdf',
        folder: 'Lab reports',
        origin: 'document',
        record: { category: 'lab', title: 'Thyroid-stimulating hormone (TSH)' },
        file: {
          pdf: {
            title: 'Blood test results',
            lines: [
              'Patient: Maria Papadopoulou, born 17 March 1984',
              `Sample taken: ${c.long(bloodTests)}`,
              'Requested by: Dr Nikos Georgiou    Laboratory: Athens Medical Laboratory',
              '',
              ...labLines(panel),
              '',
              'Comment: thyroid function normal on treatment. Vitamin D insufficient.',
            ],
          },
        },
      },
      { fileName: 'Chest X-ray.png', folder: 'Imaging', origin: 'document', file: { png: CHEST_XRAY } },
      {
        fileName: 'Spirometry report.pdf',
        origin: 'attachment',
        record: { category: 'diagnostic', title: 'Spirometry' },
        file: {
          pdf: {
            title: 'Spirometry report',
            lines: [
              'Patient: Maria Papadopoulou, born 17 March 1984',
              `Date: ${c.long(asthmaReview)}    Operator: Eleni Markou, asthma nurse`,
              '',
              'Before bronchodilator: FEV1 2.61 L (86% predicted), FVC 3.53 L, FEV1/FVC 0.74',
              'After salbutamol 400 mcg: FEV1 2.98 L (+14%), FVC 3.60 L, FEV1/FVC 0.83',
              '',
              'Conclusion: reversible airway obstruction, consistent with asthma.',
            ],
          },
        },
      },
    ],
  };
}

// --- John Carter (Northwind Health), born 2 November 1969 --------------------------------------
// Type 2 diabetes on metformin, hypertension on ramipril, severe peanut allergy, knee arthroscopy,
// screening colonoscopy; father died of a heart attack. A year of weight, blood pressure and glucose.

/** A year of readings, about a month apart, ending at the last diabetes review. */
const MONTHLY = [345, 315, 285, 255, 225, 195, 165, 135, 105, 75, 45, 15];
const WEIGHT = [98.4, 97.9, 97.1, 96.8, 96.0, 95.2, 95.5, 94.6, 93.9, 93.1, 92.8, 92.2];
const BLOOD_PRESSURE = [
  [148, 92],
  [146, 90],
  [142, 90],
  [144, 88],
  [138, 86],
  [136, 86],
  [134, 84],
  [135, 84],
  [132, 82],
  [130, 82],
  [129, 81],
  [128, 80],
] as const;
const FASTING_GLUCOSE = [8.9, 8.6, 8.4, 8.1, 7.9, 7.6, 7.8, 7.3, 7.1, 6.9, 7.0, 6.6];

export function johnChart(c: DemoCalendar): DemoChart {
  const review = c.daysAgo(15);
  const bloodTests = c.daysAgo(21);
  const lastYearTests = c.daysAgo(350);
  const colonoscopy = c.daysAgo(790);
  const panel: LabResult[] = [
    { test: 'HbA1c', result: 6.9, units: '%', range: 'target below 7.0', normal: true, conclusion: 'At target, down from 7.8% a year ago.' },
    { test: 'Fasting plasma glucose', result: 7.1, units: 'mmol/L', range: '3.9 - 5.5', normal: false },
    { test: 'LDL cholesterol', result: 2.1, units: 'mmol/L', range: 'target below 2.6', normal: true, conclusion: 'On atorvastatin 20 mg.' },
    { test: 'eGFR', result: 82, units: 'mL/min/1.73 m2', range: 'above 60', normal: true },
    { test: 'Urine albumin-to-creatinine ratio', result: 1.8, units: 'mg/mmol', range: 'below 3.0', normal: true, conclusion: 'No sign of kidney damage.' },
  ];

  return {
    records: {
      condition: [
        {
          name: 'Type 2 diabetes mellitus',
          verification_status: 'confirmed',
          start_date: inMonth(2016, 4),
          verified: true,
          note: 'Found at a routine check (HbA1c 8.4%). Metformin, a lower-carbohydrate diet and walking.',
        },
        { name: 'Hypertension', verification_status: 'confirmed', start_date: inYear(2014), verified: true, note: 'On ramipril since diagnosis.' },
        { name: 'High cholesterol', verification_status: 'confirmed', start_date: inYear(2017), verified: true },
        { name: 'Osteoarthritis of the right knee', verification_status: 'confirmed', start_date: inYear(2019), intensity: 4, verified: true, note: 'Years after the meniscus operation.' },
      ],
      symptom: [
        { name: 'Right knee pain', start_date: inYear(2019), intensity: 4, frequency: 3, interval: 'week', note: 'Worse on stairs and after long walks.' },
        { name: 'Thirst and passing water often', start_date: inMonth(2016, 1), end_date: inMonth(2016, 5), intensity: 5, frequency: 1, interval: 'day', note: 'Before the diabetes was found.' },
        {
          name: 'Tingling in both feet',
          verification_status: 'provisional',
          start_date: c.monthsAgo(3),
          intensity: 2,
          frequency: 2,
          interval: 'week',
          note: 'Mentioned at the diabetes review; foot check normal.',
        },
      ],
      medication: [
        { code: 'Metformin', ingredient: 'Metformin hydrochloride', dosage: 1000, unit: 'mg', frequency: 12, repeat: 'hours', start_date: inMonth(2016, 5), note: 'With breakfast and dinner.' },
        { code: 'Ramipril', ingredient: 'Ramipril', dosage: 5, unit: 'mg', frequency: 1, repeat: 'days', start_date: inYear(2014) },
        { code: 'Atorvastatin', ingredient: 'Atorvastatin', dosage: 20, unit: 'mg', frequency: 1, repeat: 'days', start_date: inYear(2017), note: 'At night.' },
        {
          code: 'Adrenaline auto-injector (EpiPen)',
          ingredient: 'Adrenaline (epinephrine)',
          dosage: 0.3,
          unit: 'mg',
          start_date: PAST,
          note: 'For the peanut allergy: two pens carried at all times.',
        },
        { code: 'Naproxen', dosage: 500, unit: 'mg', frequency: 12, repeat: 'hours', start_date: inMonth(2019, 10), stopped: true, stop_reason: 'Raised blood pressure; paracetamol instead.' },
      ],
      allergy: [
        {
          code: 'Peanut',
          clinical_status: 'active',
          verification_status: 'confirmed',
          type: 'allergy',
          category: 'food',
          criticality: 'high',
          reaction: 'Anaphylaxis: swollen lips and throat, difficulty breathing',
          reaction_severity: 'severe',
          onset_date: inYear(1975),
          last_occurrence: inMonth(2018, 8),
          recorder: 'Dr Sarah Mitchell',
          note: 'Avoid all peanut products, peanut oil included. Carries two adrenaline auto-injectors.',
        },
        {
          code: 'Codeine',
          clinical_status: 'active',
          verification_status: 'confirmed',
          type: 'intolerance',
          category: 'medication',
          criticality: 'low',
          reaction: 'Nausea and vomiting',
          reaction_severity: 'moderate',
          onset_date: exactly('2011-06-15'),
          note: 'After the knee operation.',
        },
      ],
      immunization: [
        { vaccine_name: 'Tetanus, diphtheria and pertussis (Tdap)', manufacturer: 'GSK', date: c.daysAgo(1900), occurrence: 'Northwind Family Practice' },
        { vaccine_name: 'COVID-19 (Spikevax)', manufacturer: 'Moderna', dose_number: 1, series_doses: 2, date: exactly('2021-04-12'), occurrence: 'Vaccination centre' },
        { vaccine_name: 'COVID-19 (Spikevax)', manufacturer: 'Moderna', dose_number: 2, series_doses: 2, date: exactly('2021-05-10'), occurrence: 'Vaccination centre' },
        { vaccine_name: 'Influenza (seasonal)', date: c.monthsAgo(2), occurrence: 'Pharmacy', note: 'Every autumn, because of the diabetes.' },
        { vaccine_name: 'Pneumococcal (PCV20)', manufacturer: 'Pfizer', dose_number: 1, series_doses: 1, date: c.yearsAgo(1), note: 'Recommended with diabetes.' },
      ],
      lab: [
        { test: 'HbA1c', test_date: lastYearTests, result: 7.8, units: '%', range_high: 7.0, range_text: 'target', within_normal_range: false, conclusion: 'Above target: diet and exercise reviewed.' },
        ...labRecords(bloodTests, panel),
      ],
      diagnostic: [
        { test: 'ECG', body_site: 'Heart', test_date: bloodTests, result: 'Sinus rhythm, 74 bpm; normal axis; no ST changes.', within_normal_range: true, conclusion: 'Normal ECG.' },
        { test: 'Diabetic eye screening', body_site: 'Both eyes', test_date: c.monthsAgo(7), result: 'Retinal photographs: no diabetic retinopathy.', within_normal_range: true, conclusion: 'Screen again in a year.' },
        {
          test: 'X-ray of the right knee',
          body_site: 'Right knee',
          test_date: c.monthsAgo(11),
          result: 'Narrowing of the medial joint space; small osteophytes.',
          within_normal_range: false,
          conclusion: 'Mild osteoarthritis.',
        },
        {
          test: 'MRI of the right knee',
          body_site: 'Right knee',
          test_date: exactly('2011-05-20'),
          result: 'Tear of the posterior horn of the medial meniscus; small joint effusion.',
          within_normal_range: false,
          conclusion: 'Arthroscopy advised.',
        },
      ],
      medicalvisit: [
        {
          reason: 'Diabetes review',
          date: review,
          professional: 'Dr Sarah Mitchell, family physician',
          symptoms: 'Occasional tingling in both feet.',
          findings: 'HbA1c 6.9%, blood pressure 128/80, weight 92.2 kg. Foot check normal.',
          diagnosis: 'Type 2 diabetes, at target; hypertension, controlled.',
          treatment: 'Continue metformin and ramipril. Vitamin B12 supplement (low-normal level on metformin).',
        },
        { reason: 'Blood pressure check', date: c.daysAgo(195), professional: 'Practice nurse', findings: 'Blood pressure 136/86.', diagnosis: 'Hypertension, improving.', treatment: 'Continue ramipril 5 mg.' },
        {
          reason: 'Knee pain',
          date: c.monthsAgo(11),
          professional: 'Dr James Whitfield, orthopaedic surgeon',
          findings: 'Crepitus in the right knee; X-ray shows mild osteoarthritis.',
          diagnosis: 'Osteoarthritis of the right knee.',
          treatment: 'Physiotherapy, weight loss and a steroid injection.',
        },
      ],
      surgery: [
        {
          procedure: 'Right knee arthroscopy (partial medial meniscectomy)',
          date: exactly('2011-06-14'),
          hospital_doctor: 'Dr James Whitfield',
          facility: 'Northwind General Hospital',
          complications: 'Nausea from codeine after the operation.',
          outcome: 'successful',
          note: 'Walking normally again after two weeks.',
        },
        { procedure: 'Left inguinal hernia repair', date: inYear(1998), implant: true, facility: 'Northwind General Hospital', outcome: 'successful', note: 'Mesh repair.' },
      ],
      procedure: [
        {
          procedure: 'Colonoscopy',
          date: colonoscopy,
          biopsy: true,
          hospital_doctor: 'Dr Priya Shah, gastroenterologist',
          facility: 'Northwind Endoscopy Unit',
          outcome: 'successful',
          note: 'Two small polyps removed (benign). Repeat in five years.',
        },
        { procedure: 'Steroid injection, right knee', date: c.monthsAgo(10), hospital_doctor: 'Dr James Whitfield', outcome: 'partially-successful', note: 'Pain better for about three months.' },
      ],
      socialhistory: [
        { category: 'tobacco', start_age: 18, end_age: 44, frequency: 15, interval: 'day', note: 'Former smoker; stopped when the high blood pressure was found.' },
        { category: 'alcohol', frequency: 4, interval: 'week', private: true, note: 'A few beers most evenings; trying to cut down.' },
        { category: 'physical-activity', start_age: 46, frequency: 5, interval: 'week', note: 'Brisk walking for 30 minutes; cycling at weekends.' },
        { category: 'diet', start_age: 46, specialist_intervention: true, note: 'Lower-carbohydrate diet planned with a dietitian.' },
        { category: 'occupation', note: 'Logistics manager, mostly desk work.' },
      ],
      familyhistory: [
        { medical_issue: 'Myocardial infarction', relationship: 'father', deceased: true, age_of_presentation: 61, outcome: 'Died of a second heart attack at 68.' },
        { medical_issue: 'Type 2 diabetes', relationship: 'mother', age_of_presentation: 55, outcome: 'On insulin since her seventies.' },
        { medical_issue: 'Hypertension', relationship: 'brother', age_of_presentation: 48 },
        { medical_issue: 'Colorectal cancer', relationship: 'grandfather', name: 'Paternal grandfather', deceased: true, age_of_presentation: 72 },
      ],
      supplement: [
        { code: 'Vitamin B12', ingredient: 'Cyanocobalamin', dosage: 1000, unit: 'mcg', frequency: 1, repeat: 'days', start_date: review, note: 'Low-normal level on metformin.' },
        { code: 'Omega-3 fish oil', dosage: 1000, unit: 'mg', frequency: 1, repeat: 'days', start_date: c.yearsAgo(4) },
        { code: 'Glucosamine', dosage: 1500, unit: 'mg', frequency: 1, repeat: 'days', start_date: inYear(2019), stopped: true, stop_reason: 'No benefit for the knee after three months.' },
      ],
      travelhistory: [
        { country: 'MX', start_date: c.daysAgo(220), end_date: c.daysAgo(210), note: 'Cancún: family holiday. Took both adrenaline pens and an allergy card in Spanish.' },
        { country: 'CA', start_date: c.monthsAgo(20), end_date: c.monthsAgo(20), note: 'Toronto: work conference.' },
        { country: 'IE', start_date: inYear(2015), end_date: inYear(2015), note: 'Dublin: visiting relatives.' },
      ],
      biometrics: [
        { measure: 'height', value: 1.8, measured_on: c.iso(345) },
        ...MONTHLY.map((days, i) => ({ measure: 'weight', value: WEIGHT[i]!, measured_on: c.iso(days) })),
        ...MONTHLY.map((days, i) => ({ measure: 'blood_pressure', value: BLOOD_PRESSURE[i]![0], diastolic: BLOOD_PRESSURE[i]![1], measured_on: c.iso(days) })),
        ...MONTHLY.map((days, i) => ({ measure: 'glucose', value: FASTING_GLUCOSE[i]!, measured_on: c.iso(days), note: 'Fasting' })),
        { measure: 'heart_rate', value: 78, measured_on: c.iso(345) },
        { measure: 'heart_rate', value: 75, measured_on: c.iso(165) },
        { measure: 'heart_rate', value: 72, measured_on: c.iso(15) },
        { measure: 'temperature', value: 38.4, measured_on: c.iso(140), note: 'Flu-like illness; better in four days.' },
        { measure: 'temperature', value: 36.7, measured_on: c.iso(15) },
        { measure: 'oxygen_saturation', value: 96, measured_on: c.iso(140) },
        { measure: 'oxygen_saturation', value: 98, measured_on: c.iso(15) },
      ],
    },
    documents: [
      {
        fileName: 'Blood test results.pdf',
        folder: 'Lab reports',
        origin: 'document',
        record: { category: 'lab', title: 'HbA1c', date: bloodTests },
        file: {
          pdf: {
            title: 'Blood test results',
            lines: [
              'Patient: John Carter, born 2 November 1969',
              `Sample taken: ${c.long(bloodTests)} (fasting)`,
              'Requested by: Dr Sarah Mitchell    Laboratory: Northwind Health Laboratory',
              '',
              ...labLines(panel),
              '',
              'Comment: diabetes at target; kidney function normal.',
            ],
          },
        },
      },
      { fileName: 'Knee X-ray.png', folder: 'Imaging', origin: 'document', file: { png: KNEE_XRAY } },
      {
        fileName: 'Colonoscopy report.pdf',
        origin: 'attachment',
        record: { category: 'procedure', title: 'Colonoscopy' },
        file: {
          pdf: {
            title: 'Colonoscopy report',
            lines: [
              'Patient: John Carter, born 2 November 1969',
              `Date: ${c.long(colonoscopy)}    Endoscopist: Dr Priya Shah`,
              'Indication: screening (grandfather had colorectal cancer).',
              '',
              'Findings: two sessile polyps of 4 and 6 mm in the sigmoid colon, removed whole.',
              'Histology: tubular adenomas with low-grade dysplasia.',
              '',
              'Recommendation: repeat colonoscopy in five years.',
            ],
          },
        },
      },
    ],
  };
}

/** Each demo patient's chart, by the e-mail of their account. */
export const DEMO_CHARTS: Readonly<Record<string, (calendar: DemoCalendar) => DemoChart>> = {
  'patient@healthbook.example': mariaChart,
  'patient@northwind.example': johnChart,
};

// --- Writing a chart ----------------------------------------------------------------------------

export interface DemoPatient {
  /** The patient's own scope (the seed writes their chart as the system, for them). */
  scope: PatientScope;
  orgId: number;
  patientId: number;
  /** The patient's own account: who entered the records and uploaded the files. */
  userId: number;
  dob: string;
}

/** A record's values as the API takes them: each `When` as a date and its `_part`; any other name is a mistake. */
function apiValues(category: CategoryDefinition, record: DemoRecord): Record<string, unknown> {
  const known = new Set([...apiFieldNames(category), COMMON_FIELDS.private]);
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record)) {
    if (!known.has(name)) throw new Error(`demo ${category.key} record: no field "${name}"`);
    if (value !== null && typeof value === 'object') {
      values[name] = value.date;
      values[`${name}_part`] = value.part;
    } else values[name] = value;
  }
  return values;
}

/** The first version's changes, as the API writes them: every field given a value. */
const creationChanges = (values: RecordValues) =>
  Object.entries(values)
    .filter(([, value]) => value !== null && value !== false)
    .map(([field, to]) => ({ field, from: null, to }));

/** A document's bytes, told apart as the server tells uploads apart (sniffFile). */
function fileOf(document: DemoDocument): { data: Buffer; type: FileType } {
  const [data, expected] = 'pdf' in document.file ? [onePagePdf(document.file.pdf), 'application/pdf'] : [greyscalePng(document.file.png), 'image/png'];
  const type = sniffFile(data);
  if (!type || type !== expected) throw new Error(`demo document ${document.fileName}: not a file the server would accept as ${expected}`);
  return { data, type };
}

/**
 * Writes a patient's chart: every record checked by the API's rules (an error names the record),
 * then inserted with its first version; then the folders, and each document's file and row. The
 * files go through `put` so that the caller can remove them if the transaction fails.
 */
export async function seedDemoRecords(trx: Db, put: (key: string, data: Buffer) => Promise<void>, patient: DemoPatient, chart: DemoChart, today: string): Promise<void> {
  const checked = CATEGORY_KEYS.flatMap((key, order) => {
    const category = categoryDefinition(key)!;
    return chart.records[key].map((record) => {
      const { values, errors } = checkRecord(category, apiValues(category, record), { today, dob: patient.dob, creating: true });
      if (errors) throw new Error(`demo ${key} record ${JSON.stringify(record)} breaks the rules: ${JSON.stringify(errors)}`);
      const date = category.dateField ? ((values[category.dateField] as string | null) ?? '') : '';
      return { category, values, date, order };
    });
  });
  // Written oldest first (undated and "in the past" first; on one day, the visit after what was
  // measured at it), so that the summary's "recent" records are the latest events: all of them
  // are written at the same moment, and "recent" then goes by id.
  checked.sort((a, b) => a.date.localeCompare(b.date) || b.order - a.order);

  const records = new RecordsRepository(trx, patient.scope);
  const inserted: Array<{ id: number; category: string; values: RecordValues }> = [];
  for (const { category, values } of checked) {
    const row = await records.insert(toStoredRecord(category, values, today), patient.userId);
    await records.addVersion(row.id, 1, 'create', row.data, creationChanges(values), patient.userId);
    inserted.push({ id: row.id, category: category.key, values });
  }

  const documents = new DocumentsRepository(trx, patient.scope);
  const folders = new Map<DemoFolder, number>();
  for (const name of FOLDERS) folders.set(name, (await documents.insertFolder(name)).id);
  for (const document of chart.documents) {
    let recordId: number | null = null;
    if (document.record) {
      const { category, title, date } = document.record;
      const definition = categoryDefinition(category)!;
      const match = inserted.find(
        (r) => r.category === category && r.values[definition.titleField] === title && (!date || (definition.dateField && r.values[definition.dateField] === date.date)),
      );
      if (!match) throw new Error(`demo document ${document.fileName}: no ${category} record "${title}"`);
      recordId = match.id;
    }
    if (document.origin === 'attachment' && (recordId === null || document.folder)) throw new Error(`demo attachment ${document.fileName}: uploaded to a record, in no folder`);
    const { data, type } = fileOf(document);
    const key = `documents/${patient.orgId}/${patient.patientId}/${randomUUID()}.${FILE_TYPES[type]}`;
    await put(key, data);
    await documents.insert(
      {
        folder_id: document.folder ? folders.get(document.folder)! : null,
        record_id: recordId,
        origin: document.origin,
        file_name: cleanFileName(document.fileName, type),
        content_type: type,
        size: data.length,
        storage_key: key,
      },
      patient.userId,
    );
  }
}
