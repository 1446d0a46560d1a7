import type { FlagId } from './flags';
import type { Applies, Bilingual, Duration, TriageLevel } from './types';

export interface Complaint {
  name: Bilingual;
  /** Other words people use for it, found by the search (accents and case do not matter). */
  synonyms: { en: readonly string[]; el: readonly string[] };
  /** Only for these people (periods, testicles). */
  for?: Applies;
  /** The outcome when no red flag is answered yes and no rule escalates it. */
  defaultLevel: Exclude<TriageLevel, 'emergency'>;
  /** From this duration on it has lasted longer than it usually should: see a doctor soon. */
  longFrom?: Duration;
  /** Its red-flag questions, most serious first (flags.ts). */
  flags: readonly FlagId[];
}

/** The common complaints the built-in checker knows, as data. */
export const COMPLAINTS = {
  'chest-pain': {
    name: { en: 'Chest pain', el: 'Πόνος στο στήθος' },
    synonyms: { en: ['chest tightness', 'heart pain', 'angina', 'pressure in chest'], el: ['σφίξιμο στο στήθος', 'πόνος στην καρδιά', 'στηθάγχη', 'πίεση στο στήθος'] },
    // Chest pain is always checked by a clinician the same day (NHS 111), even without red flags.
    defaultLevel: 'urgent',
    flags: ['chest-pain-spreading', 'chest-pain-pressure', 'chest-pain-with-symptoms', 'severe-breathing'],
  },
  headache: {
    name: { en: 'Headache', el: 'Πονοκέφαλος' },
    synonyms: { en: ['migraine', 'head pain', 'head ache'], el: ['ημικρανία', 'κεφαλαλγία', 'πόνος στο κεφάλι'] },
    defaultLevel: 'self-care',
    longFrom: '1-4-weeks',
    flags: ['thunderclap-headache', 'stroke-signs', 'stiff-neck-fever', 'rash-not-fading', 'confused-drowsy', 'after-head-injury'],
  },
  fever: {
    name: { en: 'Fever (high temperature)', el: 'Πυρετός' },
    synonyms: { en: ['high temperature', 'temperature', 'chills', 'shivering', 'feverish'], el: ['θερμοκρασία', 'ρίγη', 'ρίγος', 'ανεβασμένη θερμοκρασία'] },
    defaultLevel: 'self-care',
    longFrom: '4-7-days',
    flags: ['rash-not-fading', 'confused-drowsy', 'mottled-skin', 'severe-breathing', 'seizure', 'stiff-neck-fever', 'baby-under-3-months', 'not-drinking-or-peeing'],
  },
  cough: {
    name: { en: 'Cough', el: 'Βήχας' },
    synonyms: { en: ['chesty cough', 'dry cough', 'coughing', 'bronchitis'], el: ['ξερός βήχας', 'παραγωγικός βήχας', 'βρογχίτιδα'] },
    defaultLevel: 'self-care',
    longFrom: '1-4-weeks',
    flags: ['severe-breathing', 'breathing-chest-pain', 'coughing-blood', 'mottled-skin'],
  },
  cold: {
    name: { en: 'Cold or runny nose', el: 'Κρυολόγημα ή καταρροή' },
    synonyms: { en: ['common cold', 'runny nose', 'blocked nose', 'stuffy nose', 'sneezing', 'flu'], el: ['κρύωμα', 'συνάχι', 'μπουκωμένη μύτη', 'φτέρνισμα', 'γρίπη', 'καταρροή'] },
    defaultLevel: 'self-care',
    longFrom: '1-4-weeks',
    flags: ['severe-breathing', 'hot-and-shivery', 'weak-immune-system'],
  },
  'sore-throat': {
    name: { en: 'Sore throat', el: 'Πονόλαιμος' },
    synonyms: { en: ['throat pain', 'tonsillitis', 'strep throat', 'hoarse'], el: ['πόνος στον λαιμό', 'αμυγδαλίτιδα', 'φαρυγγίτιδα', 'βραχνάδα'] },
    defaultLevel: 'self-care',
    longFrom: '1-4-weeks',
    flags: ['cannot-swallow-drooling', 'severe-breathing', 'hot-and-shivery', 'weak-immune-system'],
  },
  'shortness-of-breath': {
    name: { en: 'Shortness of breath', el: 'Δύσπνοια' },
    synonyms: { en: ['breathless', 'breathing difficulty', 'wheezing', 'asthma', 'cannot breathe'], el: ['λαχάνιασμα', 'δυσκολία στην αναπνοή', 'σφύριγμα', 'άσθμα', 'κομμένη ανάσα'] },
    defaultLevel: 'urgent',
    flags: ['severe-breathing', 'breathing-chest-pain', 'mottled-skin', 'confused-drowsy', 'anaphylaxis-signs'],
  },
  'abdominal-pain': {
    name: { en: 'Abdominal (stomach) pain', el: 'Πόνος στην κοιλιά' },
    synonyms: { en: ['stomach ache', 'tummy ache', 'belly pain', 'cramps', 'indigestion'], el: ['στομαχόπονος', 'κοιλόπονος', 'πόνος στο στομάχι', 'κράμπες', 'δυσπεψία'] },
    defaultLevel: 'self-care',
    longFrom: '4-7-days',
    flags: ['sudden-severe-abdominal-pain', 'vomiting-blood', 'breathing-chest-pain', 'black-or-bloody-stool', 'could-be-pregnant', 'bladder-bowel-control'],
  },
  'back-pain': {
    name: { en: 'Back pain', el: 'Πόνος στη μέση ή στην πλάτη' },
    synonyms: { en: ['lower back pain', 'backache', 'sciatica', 'lumbago'], el: ['οσφυαλγία', 'πόνος στη μέση', 'ισχιαλγία', 'πιάσιμο στη μέση', 'πόνος στην πλάτη'] },
    defaultLevel: 'self-care',
    longFrom: '1-4-weeks',
    flags: ['saddle-numbness', 'bladder-bowel-control', 'legs-weakness', 'back-pain-fever', 'after-fall-or-injury'],
  },
  diarrhoea: {
    name: { en: 'Diarrhoea', el: 'Διάρροια' },
    synonyms: { en: ['diarrhea', 'loose stools', 'runs', 'gastroenteritis', 'stomach bug'], el: ['υγρές κενώσεις', 'γαστρεντερίτιδα', 'ίωση στομάχου', 'κόψιμο'] },
    defaultLevel: 'self-care',
    longFrom: '4-7-days',
    flags: ['black-or-bloody-stool', 'not-drinking-or-peeing', 'confused-drowsy'],
  },
  vomiting: {
    name: { en: 'Vomiting', el: 'Εμετός' },
    synonyms: { en: ['being sick', 'throwing up', 'nausea', 'feeling sick'], el: ['εμετοί', 'ναυτία', 'τάση για εμετό', 'ξερατό'] },
    defaultLevel: 'self-care',
    longFrom: '1-3-days',
    flags: ['vomiting-blood', 'stiff-neck-fever', 'swallowed-poison', 'confused-drowsy', 'after-head-injury', 'not-drinking-or-peeing'],
  },
  rash: {
    name: { en: 'Rash or skin problem', el: 'Εξάνθημα ή πρόβλημα στο δέρμα' },
    synonyms: { en: ['spots', 'hives', 'itchy skin', 'eczema', 'skin rash', 'allergic reaction'], el: ['σπυράκια', 'κνίδωση', 'φαγούρα', 'έκζεμα', 'αλλεργική αντίδραση', 'κοκκινίλες'] },
    defaultLevel: 'self-care',
    longFrom: '1-4-weeks',
    flags: ['anaphylaxis-signs', 'rash-not-fading', 'rash-blistering', 'hot-and-shivery'],
  },
  dizziness: {
    name: { en: 'Dizziness', el: 'Ζάλη' },
    synonyms: { en: ['lightheaded', 'vertigo', 'faint', 'unsteady', 'room spinning'], el: ['ζαλάδα', 'ίλιγγος', 'αστάθεια', 'σκοτοδίνη', 'λιποθυμία'] },
    defaultLevel: 'self-care',
    longFrom: '4-7-days',
    flags: ['stroke-signs', 'breathing-chest-pain', 'palpitations-with-symptoms', 'fainted', 'after-head-injury'],
  },
  'ear-pain': {
    name: { en: 'Earache', el: 'Πόνος στο αυτί' },
    synonyms: { en: ['ear pain', 'ear infection', 'blocked ear', 'otitis'], el: ['ωταλγία', 'ωτίτιδα', 'βουλωμένο αυτί', 'μόλυνση στο αυτί'] },
    defaultLevel: 'self-care',
    longFrom: '4-7-days',
    flags: ['stiff-neck-fever', 'behind-ear-swelling', 'hot-and-shivery'],
  },
  'urinary-pain': {
    name: { en: 'Pain or burning when peeing', el: 'Πόνος ή κάψιμο στην ούρηση' },
    synonyms: { en: ['urinary tract infection', 'uti', 'cystitis', 'burning urine', 'peeing often'], el: ['ουρολοίμωξη', 'κυστίτιδα', 'τσούξιμο στα ούρα', 'συχνοουρία'] },
    defaultLevel: 'soon',
    flags: ['kidney-infection-signs', 'confused-drowsy', 'blood-in-urine', 'bladder-bowel-control'],
  },
  'eye-problem': {
    name: { en: 'Eye problem', el: 'Πρόβλημα στο μάτι' },
    synonyms: { en: ['red eye', 'sore eye', 'conjunctivitis', 'pink eye', 'blurred vision', 'something in eye'], el: ['κόκκινο μάτι', 'επιπεφυκίτιδα', 'θολή όραση', 'κάτι στο μάτι', 'πονεμένο μάτι'] },
    defaultLevel: 'self-care',
    longFrom: '4-7-days',
    flags: ['sudden-vision-loss', 'stroke-signs', 'chemical-in-eye', 'painful-red-eye'],
  },
  'joint-injury': {
    name: { en: 'Sprain or joint injury', el: 'Διάστρεμμα ή τραυματισμός άρθρωσης' },
    synonyms: { en: ['sprained ankle', 'twisted ankle', 'strain', 'swollen joint', 'knee injury', 'wrist injury'], el: ['στραμπούληγμα', 'στραμπουλήξαμε', 'θλάση', 'πρησμένη άρθρωση', 'τραυματισμός γονάτου', 'χτύπημα'] },
    defaultLevel: 'self-care',
    longFrom: '1-4-weeks',
    flags: ['bone-deformed', 'cannot-bear-weight'],
  },
  'low-mood': {
    name: { en: 'Anxiety or low mood', el: 'Άγχος ή πεσμένη διάθεση' },
    synonyms: { en: ['depression', 'feeling down', 'stress', 'panic', 'worry', 'sad'], el: ['κατάθλιψη', 'στενοχώρια', 'στρες', 'πανικός', 'ανησυχία', 'λύπη', 'αγχος'] },
    defaultLevel: 'self-care',
    longFrom: '1-4-weeks',
    flags: ['thoughts-of-acting-on-suicide', 'thoughts-of-self-harm'],
  },
  tiredness: {
    name: { en: 'Tiredness', el: 'Κούραση' },
    synonyms: { en: ['fatigue', 'exhausted', 'no energy', 'weakness', 'sleepy'], el: ['κόπωση', 'εξάντληση', 'αδυναμία', 'ατονία', 'νύστα'] },
    defaultLevel: 'self-care',
    longFrom: '1-4-weeks',
    flags: ['confused-drowsy', 'breathless-at-rest'],
  },
  toothache: {
    name: { en: 'Toothache', el: 'Πονόδοντος' },
    synonyms: { en: ['tooth pain', 'dental pain', 'gum pain', 'abscess'], el: ['πόνος στο δόντι', 'ουλίτιδα', 'απόστημα', 'πόνος στα ούλα'] },
    defaultLevel: 'self-care',
    longFrom: '1-3-days',
    flags: ['facial-swelling-breathing', 'facial-swelling-fever'],
  },
  palpitations: {
    name: { en: 'Heart racing or fluttering (palpitations)', el: 'Ταχυπαλμία ή φτερούγισμα στην καρδιά' },
    synonyms: { en: ['palpitations', 'fast heartbeat', 'irregular heartbeat', 'pounding heart', 'skipped beats'], el: ['αίσθημα παλμών', 'γρήγοροι χτύποι', 'αρρυθμία', 'ταχυκαρδία', 'φτερούγισμα'] },
    defaultLevel: 'soon',
    flags: ['palpitations-with-symptoms', 'stroke-signs', 'fainted'],
  },
  'period-problem': {
    name: { en: 'Period pain or heavy bleeding', el: 'Πόνος περιόδου ή έντονη αιμορραγία' },
    synonyms: { en: ['period cramps', 'heavy periods', 'menstrual pain', 'vaginal bleeding'], el: ['περίοδος', 'δυσμηνόρροια', 'έμμηνος ρύση', 'κολπική αιμορραγία', 'πόνοι περιόδου'] },
    for: { sexes: ['female'], minAge: 8, maxAge: 60 },
    defaultLevel: 'self-care',
    longFrom: '4-7-days',
    flags: ['could-be-pregnant', 'heavy-bleeding', 'sudden-severe-abdominal-pain'],
  },
  'testicle-pain': {
    name: { en: 'Testicle pain', el: 'Πόνος στους όρχεις' },
    synonyms: { en: ['testicular pain', 'scrotum pain', 'swollen testicle', 'groin pain'], el: ['πόνος στον όρχι', 'όσχεο', 'πρησμένος όρχις', 'πόνος στη βουβωνική χώρα'] },
    for: { sexes: ['male'] },
    defaultLevel: 'soon',
    flags: ['sudden-testicle-pain', 'testicle-swelling-fever'],
  },
  burn: {
    name: { en: 'Burn or scald', el: 'Έγκαυμα' },
    synonyms: { en: ['scald', 'sunburn', 'burnt skin', 'blister'], el: ['ζεμάτισμα', 'κάψιμο', 'ηλιακό έγκαυμα', 'φουσκάλα'] },
    defaultLevel: 'self-care',
    longFrom: '1-4-weeks',
    flags: ['severe-breathing', 'chemical-electrical-burn', 'large-or-deep-burn'],
  },
} as const satisfies Record<string, Complaint>;

export type ComplaintId = keyof typeof COMPLAINTS;
export const COMPLAINT_IDS = Object.keys(COMPLAINTS) as [ComplaintId, ...ComplaintId[]];

/** A complaint's declaration, by id. */
export const complaintOf = (id: ComplaintId): Complaint => COMPLAINTS[id];
