/**
 * The choice lists of the record categories, each defined once. Values are stable API values
 * (FHIR's codes where FHIR has the list); labels come from the `records` catalog
 * (`choices.<list>.<value>`) in the reader's language, and are what OPTIONS answers.
 */
export const CHOICE_LISTS = {
  /** FHIR AllergyIntolerance.clinicalStatus and Condition.clinicalStatus. */
  clinicalStatus: ['active', 'recurrence', 'relapse', 'inactive', 'remission', 'resolved'],
  /** FHIR AllergyIntolerance.verificationStatus. */
  allergyVerification: ['unconfirmed', 'presumed', 'confirmed', 'refuted', 'entered-in-error'],
  /** FHIR Condition.verificationStatus. */
  conditionVerification: ['unconfirmed', 'provisional', 'differential', 'confirmed', 'refuted', 'entered-in-error'],
  /** FHIR AllergyIntolerance.type. */
  allergyType: ['allergy', 'intolerance'],
  /** FHIR AllergyIntolerance.category. */
  allergyCategory: ['food', 'medication', 'environment', 'biologic', 'other'],
  /** FHIR AllergyIntolerance.criticality. */
  criticality: ['low', 'high', 'unable-to-assess'],
  /** How bad a reaction was (FHIR reaction.severity). */
  severity: ['mild', 'moderate', 'severe'],
  /** "Every N <interval>": frequency's unit. */
  interval: ['day', 'week', 'month', 'year'],
  /** A medicine's repeat ("every N hours/days/weeks/months"). */
  repeat: ['hours', 'days', 'weeks', 'months'],
  /** A lab result's flag (FHIR ObservationInterpretation L, H, A, AA): set by hand, else worked out from the range (format.ts). */
  labFlag: ['low', 'high', 'abnormal', 'critical'],
  /** A dose's unit. */
  doseUnit: ['mg', 'g', 'mcg', 'ml', 'iu', 'tablet', 'capsule', 'drop', 'puff', 'patch', 'unit'],
  /** A relative (family history). */
  relationship: [
    'mother',
    'father',
    'sister',
    'brother',
    'daughter',
    'son',
    'grandmother',
    'grandfather',
    'aunt',
    'uncle',
    'cousin',
    'other',
  ],
  /** What a social-history entry is about. */
  socialCategory: ['tobacco', 'alcohol', 'recreational-drugs', 'physical-activity', 'diet', 'sleep', 'occupation', 'stress', 'other'],
  /** An operation's or procedure's outcome. */
  outcome: ['successful', 'partially-successful', 'unsuccessful', 'unknown'],
  /** A biometric measure. */
  measure: ['weight', 'height', 'blood_pressure', 'heart_rate', 'glucose', 'temperature', 'oxygen_saturation'],
} as const satisfies Record<string, readonly string[]>;

export type ChoiceListName = keyof typeof CHOICE_LISTS;

export const choiceValues = (list: ChoiceListName): readonly string[] => CHOICE_LISTS[list];

/** ISO 3166-1 alpha-2 codes of the world's countries and territories (named by Intl.DisplayNames in the reader's language). */
export const COUNTRY_CODES = (
  'AD AE AF AG AI AL AM AO AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ ' +
  'DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GT GU GW GY HK HN HR HT HU ID IE IL IM IN IQ IR IS IT JE JM JO JP ' +
  'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ ' +
  'OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TG TH TJ TK TL TM TN TO TR TT TV TW TZ ' +
  'UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'
).split(' ');

/** A country's name in a language (the code itself when the runtime has no name for it). */
export function countryName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
