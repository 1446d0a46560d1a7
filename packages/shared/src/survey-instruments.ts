import type { SurveyDefinition, SurveyOption } from './surveys';

/**
 * The published screening instruments, as data: their wording, answer scale, scoring bands
 * and required attribution. English: the published wording (PHQ Screeners, Pfizer; WHO-5,
 * WHO Collaborating Centre in Mental Health). Greek: our careful translation (the published
 * Greek versions were not available to us); it keeps each item's meaning and time frame.
 *
 * Sources:
 * - PHQ-9: Kroenke K, Spitzer RL, Williams JBW. The PHQ-9: validity of a brief depression
 *   severity measure. J Gen Intern Med 2001;16:606-613. Bands 5/10/15/20.
 * - PHQ-2: Kroenke K, Spitzer RL, Williams JBW. The Patient Health Questionnaire-2. Med Care
 *   2003;41:1284-1292. Cut-off 3.
 * - GAD-7: Spitzer RL, Kroenke K, Williams JBW, Löwe B. A brief measure for assessing generalized
 *   anxiety disorder. Arch Intern Med 2006;166:1092-1097. Bands 5/10/15.
 * - WHO-5: WHO (Five) Well-Being Index, Psychiatric Research Unit, WHO Collaborating Centre in
 *   Mental Health, Frederiksborg General Hospital (1998). Raw score x4 = 0-100; 50 or less
 *   suggests poor well-being, 28 or less likely depression (Topp et al., Psychother Psychosom
 *   2015;84:167-176).
 */

const PHQ_ATTRIBUTION = {
  en: 'Developed by Drs. Robert L. Spitzer, Janet B.W. Williams, Kurt Kroenke and colleagues, with an educational grant from Pfizer Inc. No permission required to reproduce, translate, display or distribute.',
  el: 'Αναπτύχθηκε από τους Δρ Robert L. Spitzer, Janet B.W. Williams, Kurt Kroenke και συνεργάτες, με εκπαιδευτική επιχορήγηση της Pfizer Inc. Δεν απαιτείται άδεια για αναπαραγωγή, μετάφραση, προβολή ή διανομή. Ελληνική απόδοση: μετάφραση της εφαρμογής.',
};

/** Not at all / Several days / More than half the days / Nearly every day: 0-3. */
export const PHQ_SCALE: readonly SurveyOption[] = [
  { value: 0, label: { en: 'Not at all', el: 'Καθόλου' } },
  { value: 1, label: { en: 'Several days', el: 'Αρκετές ημέρες' } },
  { value: 2, label: { en: 'More than half the days', el: 'Περισσότερες από τις μισές ημέρες' } },
  { value: 3, label: { en: 'Nearly every day', el: 'Σχεδόν κάθε ημέρα' } },
];

const PHQ_STEM = {
  en: 'Over the last 2 weeks, how often have you been bothered by any of the following problems?',
  el: 'Τις τελευταίες 2 εβδομάδες, πόσο συχνά σας ενόχλησε κάποιο από τα παρακάτω προβλήματα;',
};

/** The PHQ's closing question (not scored): asked when any problem was checked. */
const DIFFICULTY = {
  id: 'difficulty',
  scored: false,
  optional: true,
  text: {
    en: 'If you checked off any problems, how difficult have these problems made it for you to do your work, take care of things at home, or get along with other people?',
    el: 'Αν σημειώσατε κάποιο πρόβλημα, πόσο δύσκολο σας έκανε αυτό να κάνετε τη δουλειά σας, να φροντίσετε τα πράγματα στο σπίτι ή να τα πηγαίνετε καλά με άλλους ανθρώπους;',
  },
  options: [
    { value: 0, label: { en: 'Not difficult at all', el: 'Καθόλου δύσκολο' } },
    { value: 1, label: { en: 'Somewhat difficult', el: 'Κάπως δύσκολο' } },
    { value: 2, label: { en: 'Very difficult', el: 'Πολύ δύσκολο' } },
    { value: 3, label: { en: 'Extremely difficult', el: 'Εξαιρετικά δύσκολο' } },
  ],
} as const;

const PHQ9_ITEMS = [
  { id: 'q1', text: { en: 'Little interest or pleasure in doing things', el: 'Λίγο ενδιαφέρον ή λίγη ευχαρίστηση στο να κάνετε πράγματα' } },
  { id: 'q2', text: { en: 'Feeling down, depressed, or hopeless', el: 'Αισθανθήκατε πεσμένος/η, θλιμμένος/η ή απελπισμένος/η' } },
  {
    id: 'q3',
    text: { en: 'Trouble falling or staying asleep, or sleeping too much', el: 'Δυσκολία να σας πάρει ο ύπνος ή να κοιμηθείτε χωρίς διακοπές, ή ύπνος περισσότερος από το κανονικό' },
  },
  { id: 'q4', text: { en: 'Feeling tired or having little energy', el: 'Αισθανθήκατε κούραση ή είχατε λίγη ενέργεια' } },
  { id: 'q5', text: { en: 'Poor appetite or overeating', el: 'Λίγη όρεξη ή υπερβολικό φαγητό' } },
  {
    id: 'q6',
    text: {
      en: 'Feeling bad about yourself — or that you are a failure or have let yourself or your family down',
      el: 'Αισθανθήκατε άσχημα για τον εαυτό σας — ή ότι είστε αποτυχημένος/η ή ότι απογοητεύσατε τον εαυτό σας ή την οικογένειά σας',
    },
  },
  {
    id: 'q7',
    text: {
      en: 'Trouble concentrating on things, such as reading the newspaper or watching television',
      el: 'Δυσκολία να συγκεντρωθείτε σε πράγματα, όπως στο διάβασμα της εφημερίδας ή στην τηλεόραση',
    },
  },
  {
    id: 'q8',
    text: {
      en: 'Moving or speaking so slowly that other people could have noticed? Or the opposite — being so fidgety or restless that you have been moving around a lot more than usual',
      el: 'Κινηθήκατε ή μιλήσατε τόσο αργά που θα μπορούσαν να το προσέξουν οι άλλοι; Ή το αντίθετο — νιώσατε τόσο νευρικός/ή ή ανήσυχος/η που κινούσασταν πολύ περισσότερο από το συνηθισμένο',
    },
  },
  {
    id: 'q9',
    // The safety item: any answer above 0 shows crisis help at once, whatever the total.
    safety: true,
    text: {
      en: 'Thoughts that you would be better off dead or of hurting yourself in some way',
      el: 'Σκέψεις ότι θα ήταν καλύτερα να είστε νεκρός/ή ή ότι θα θέλατε να βλάψετε τον εαυτό σας με κάποιον τρόπο',
    },
  },
] as const;

const SCREENING_NOTE = {
  en: 'This is a screening, not a diagnosis. Only a health professional who knows you can tell what your answers mean for you.',
  el: 'Πρόκειται για προληπτικό έλεγχο, όχι για διάγνωση. Μόνο ένας επαγγελματίας υγείας που σας γνωρίζει μπορεί να πει τι σημαίνουν οι απαντήσεις σας για εσάς.',
};

export const PHQ9: SurveyDefinition = {
  key: 'phq-9',
  title: { en: 'Depression check (PHQ-9)', el: 'Έλεγχος για κατάθλιψη (PHQ-9)' },
  summary: {
    en: 'Nine questions about your mood over the last two weeks. It takes about three minutes.',
    el: 'Εννέα ερωτήσεις για τη διάθεσή σας τις τελευταίες δύο εβδομάδες. Χρειάζεται περίπου τρία λεπτά.',
  },
  instructions: PHQ_STEM,
  scale: PHQ_SCALE,
  items: [...PHQ9_ITEMS, DIFFICULTY],
  bands: [
    {
      key: 'minimal',
      min: 0,
      max: 4,
      level: 0,
      label: { en: 'Minimal or no depression symptoms', el: 'Ελάχιστα ή καθόλου συμπτώματα κατάθλιψης' },
      meaning: {
        en: 'Your answers suggest few or no signs of depression right now. If something still worries you, it is always fine to talk to someone.',
        el: 'Οι απαντήσεις σας δείχνουν λίγα ή καθόλου σημάδια κατάθλιψης αυτή την περίοδο. Αν κάτι σας απασχολεί, είναι πάντα καλό να μιλήσετε με κάποιον.',
      },
    },
    {
      key: 'mild',
      min: 5,
      max: 9,
      level: 1,
      label: { en: 'Mild depression symptoms', el: 'Ήπια συμπτώματα κατάθλιψης' },
      meaning: {
        en: 'Your answers suggest some symptoms of depression. Keep an eye on how you feel and take the check again in a couple of weeks; talk to a professional if it does not get better.',
        el: 'Οι απαντήσεις σας δείχνουν κάποια συμπτώματα κατάθλιψης. Προσέξτε πώς νιώθετε και επαναλάβετε τον έλεγχο σε δύο εβδομάδες· μιλήστε με έναν επαγγελματία αν δεν βελτιωθεί.',
      },
    },
    {
      key: 'moderate',
      min: 10,
      max: 14,
      level: 2,
      label: { en: 'Moderate depression symptoms', el: 'Μέτρια συμπτώματα κατάθλιψης' },
      meaning: {
        en: 'Your answers suggest moderate symptoms of depression. It would help to talk with a health professional about how you have been feeling.',
        el: 'Οι απαντήσεις σας δείχνουν μέτρια συμπτώματα κατάθλιψης. Θα βοηθούσε να μιλήσετε με έναν επαγγελματία υγείας για το πώς νιώθετε.',
      },
    },
    {
      key: 'moderately-severe',
      min: 15,
      max: 19,
      level: 3,
      label: { en: 'Moderately severe depression symptoms', el: 'Μέτρια προς σοβαρά συμπτώματα κατάθλιψης' },
      meaning: {
        en: 'Your answers suggest quite strong symptoms of depression. Please talk with a health professional soon; support and treatment help.',
        el: 'Οι απαντήσεις σας δείχνουν αρκετά έντονα συμπτώματα κατάθλιψης. Μιλήστε σύντομα με έναν επαγγελματία υγείας· η υποστήριξη και η θεραπεία βοηθούν.',
      },
    },
    {
      key: 'severe',
      min: 20,
      max: 27,
      level: 4,
      label: { en: 'Severe depression symptoms', el: 'Σοβαρά συμπτώματα κατάθλιψης' },
      meaning: {
        en: 'Your answers suggest severe symptoms of depression. Please contact a health professional as soon as you can; you do not have to go through this alone.',
        el: 'Οι απαντήσεις σας δείχνουν σοβαρά συμπτώματα κατάθλιψης. Επικοινωνήστε με έναν επαγγελματία υγείας το συντομότερο δυνατό· δεν χρειάζεται να τα περάσετε όλα αυτά μόνος/η.',
      },
    },
  ],
  note: SCREENING_NOTE,
  attribution: PHQ_ATTRIBUTION,
  codes: { questionnaire: '44249-1', total: '44261-6', display: 'PHQ-9 quick depression assessment panel' },
};

export const PHQ2: SurveyDefinition = {
  key: 'phq-2',
  title: { en: 'Quick mood check (PHQ-2)', el: 'Σύντομος έλεγχος διάθεσης (PHQ-2)' },
  summary: {
    en: 'Two questions about your mood over the last two weeks. If they suggest it, the PHQ-9 follows.',
    el: 'Δύο ερωτήσεις για τη διάθεσή σας τις τελευταίες δύο εβδομάδες. Αν χρειάζεται, ακολουθεί το PHQ-9.',
  },
  instructions: PHQ_STEM,
  scale: PHQ_SCALE,
  items: PHQ9_ITEMS.slice(0, 2),
  bands: [
    {
      key: 'negative',
      min: 0,
      max: 2,
      level: 0,
      label: { en: 'Screen negative', el: 'Αρνητικός έλεγχος' },
      meaning: {
        en: 'Your answers do not point to depression right now. If your mood changes, you can take the check again at any time.',
        el: 'Οι απαντήσεις σας δεν παραπέμπουν σε κατάθλιψη αυτή την περίοδο. Αν αλλάξει η διάθεσή σας, μπορείτε να επαναλάβετε τον έλεγχο όποτε θέλετε.',
      },
    },
    {
      key: 'positive',
      min: 3,
      max: 6,
      level: 2,
      label: { en: 'Screen positive: a few more questions', el: 'Θετικός έλεγχος: λίγες ακόμη ερωτήσεις' },
      meaning: {
        en: 'Your answers suggest it is worth looking a little closer. The PHQ-9 asks seven more questions to understand how you have been feeling.',
        el: 'Οι απαντήσεις σας δείχνουν ότι αξίζει να το δούμε λίγο πιο προσεκτικά. Το PHQ-9 κάνει επτά ακόμη ερωτήσεις για να καταλάβουμε πώς νιώθετε.',
      },
    },
  ],
  next: { from: 3, survey: 'phq-9' },
  note: SCREENING_NOTE,
  attribution: PHQ_ATTRIBUTION,
  codes: { questionnaire: '55757-9', total: '55758-7', display: 'Patient Health Questionnaire 2 item (PHQ-2)' },
};

export const GAD7: SurveyDefinition = {
  key: 'gad-7',
  title: { en: 'Anxiety check (GAD-7)', el: 'Έλεγχος για άγχος (GAD-7)' },
  summary: {
    en: 'Seven questions about worry and anxiety over the last two weeks. It takes about two minutes.',
    el: 'Επτά ερωτήσεις για την ανησυχία και το άγχος τις τελευταίες δύο εβδομάδες. Χρειάζεται περίπου δύο λεπτά.',
  },
  instructions: {
    en: 'Over the last 2 weeks, how often have you been bothered by the following problems?',
    el: 'Τις τελευταίες 2 εβδομάδες, πόσο συχνά σας ενόχλησαν τα παρακάτω προβλήματα;',
  },
  scale: PHQ_SCALE,
  items: [
    { id: 'q1', text: { en: 'Feeling nervous, anxious, or on edge', el: 'Αισθανθήκατε νευρικότητα, άγχος ή ότι είστε σε υπερένταση' } },
    { id: 'q2', text: { en: 'Not being able to stop or control worrying', el: 'Δεν μπορούσατε να σταματήσετε ή να ελέγξετε την ανησυχία' } },
    { id: 'q3', text: { en: 'Worrying too much about different things', el: 'Ανησυχούσατε υπερβολικά για διάφορα πράγματα' } },
    { id: 'q4', text: { en: 'Trouble relaxing', el: 'Δυσκολία να χαλαρώσετε' } },
    { id: 'q5', text: { en: 'Being so restless that it is hard to sit still', el: 'Τόση ανησυχία που ήταν δύσκολο να μείνετε ήσυχος/η στη θέση σας' } },
    { id: 'q6', text: { en: 'Becoming easily annoyed or irritable', el: 'Ενοχλούσασταν ή εκνευριζόσασταν εύκολα' } },
    { id: 'q7', text: { en: 'Feeling afraid, as if something awful might happen', el: 'Νιώθατε φόβο, σαν να επρόκειτο να συμβεί κάτι φοβερό' } },
    DIFFICULTY,
  ],
  bands: [
    {
      key: 'minimal',
      min: 0,
      max: 4,
      level: 0,
      label: { en: 'Minimal anxiety', el: 'Ελάχιστο άγχος' },
      meaning: {
        en: 'Your answers suggest little or no anxiety right now.',
        el: 'Οι απαντήσεις σας δείχνουν λίγο ή καθόλου άγχος αυτή την περίοδο.',
      },
    },
    {
      key: 'mild',
      min: 5,
      max: 9,
      level: 1,
      label: { en: 'Mild anxiety', el: 'Ήπιο άγχος' },
      meaning: {
        en: 'Your answers suggest some anxiety. Notice what helps you feel calmer and take the check again in a couple of weeks; talk to a professional if it does not ease.',
        el: 'Οι απαντήσεις σας δείχνουν κάποιο άγχος. Προσέξτε τι σας βοηθά να ηρεμείτε και επαναλάβετε τον έλεγχο σε δύο εβδομάδες· μιλήστε με έναν επαγγελματία αν δεν υποχωρήσει.',
      },
    },
    {
      key: 'moderate',
      min: 10,
      max: 14,
      level: 2,
      label: { en: 'Moderate anxiety', el: 'Μέτριο άγχος' },
      meaning: {
        en: 'Your answers suggest moderate anxiety. It would help to talk with a health professional about it.',
        el: 'Οι απαντήσεις σας δείχνουν μέτριο άγχος. Θα βοηθούσε να το συζητήσετε με έναν επαγγελματία υγείας.',
      },
    },
    {
      key: 'severe',
      min: 15,
      max: 21,
      level: 4,
      label: { en: 'Severe anxiety', el: 'Σοβαρό άγχος' },
      meaning: {
        en: 'Your answers suggest severe anxiety. Please talk with a health professional soon; support and treatment help.',
        el: 'Οι απαντήσεις σας δείχνουν σοβαρό άγχος. Μιλήστε σύντομα με έναν επαγγελματία υγείας· η υποστήριξη και η θεραπεία βοηθούν.',
      },
    },
  ],
  note: SCREENING_NOTE,
  attribution: PHQ_ATTRIBUTION,
  codes: { questionnaire: '69737-5', total: '70274-6', display: 'Generalized anxiety disorder 7 item (GAD-7)' },
};

/** WHO-5: 0-5 per item, raw 0-25, reported as a percentage (x4); higher is better. */
export const WHO5: SurveyDefinition = {
  key: 'general',
  title: { en: 'Well-being check (WHO-5)', el: 'Έλεγχος ευεξίας (WHO-5)' },
  summary: {
    en: 'Five statements about how you have been feeling over the last two weeks.',
    el: 'Πέντε δηλώσεις για το πώς νιώθατε τις τελευταίες δύο εβδομάδες.',
  },
  instructions: {
    en: 'Please choose, for each of the five statements, the answer closest to how you have been feeling over the last two weeks.',
    el: 'Για καθεμία από τις πέντε δηλώσεις, επιλέξτε την απάντηση που ταιριάζει περισσότερο στο πώς νιώθατε τις τελευταίες δύο εβδομάδες.',
  },
  scale: [
    { value: 5, label: { en: 'All of the time', el: 'Όλη την ώρα' } },
    { value: 4, label: { en: 'Most of the time', el: 'Τις περισσότερες φορές' } },
    { value: 3, label: { en: 'More than half of the time', el: 'Περισσότερο από τον μισό χρόνο' } },
    { value: 2, label: { en: 'Less than half of the time', el: 'Λιγότερο από τον μισό χρόνο' } },
    { value: 1, label: { en: 'Some of the time', el: 'Μερικές φορές' } },
    { value: 0, label: { en: 'At no time', el: 'Ποτέ' } },
  ],
  items: [
    { id: 'q1', text: { en: 'I have felt cheerful and in good spirits', el: 'Ένιωθα χαρούμενος/η και σε καλή διάθεση' } },
    { id: 'q2', text: { en: 'I have felt calm and relaxed', el: 'Ένιωθα ήρεμος/η και χαλαρός/ή' } },
    { id: 'q3', text: { en: 'I have felt active and vigorous', el: 'Ένιωθα δραστήριος/α και γεμάτος/η ενέργεια' } },
    { id: 'q4', text: { en: 'I woke up feeling fresh and rested', el: 'Ξυπνούσα νιώθοντας φρέσκος/ια και ξεκούραστος/η' } },
    { id: 'q5', text: { en: 'My daily life has been filled with things that interest me', el: 'Η καθημερινότητά μου ήταν γεμάτη με πράγματα που με ενδιαφέρουν' } },
  ],
  multiplier: 4,
  higherIsBetter: true,
  bands: [
    {
      key: 'low',
      min: 0,
      max: 28,
      level: 3,
      label: { en: 'Low well-being', el: 'Χαμηλή ευεξία' },
      meaning: {
        en: 'Your answers suggest your well-being has been low. Scores in this range are often seen with depression: a check with the PHQ-9 and a talk with a health professional would help.',
        el: 'Οι απαντήσεις σας δείχνουν ότι η ευεξία σας ήταν χαμηλή. Τέτοιες βαθμολογίες εμφανίζονται συχνά μαζί με κατάθλιψη: ένας έλεγχος με το PHQ-9 και μια συζήτηση με έναν επαγγελματία υγείας θα βοηθούσαν.',
      },
    },
    {
      key: 'reduced',
      min: 29,
      max: 50,
      level: 2,
      label: { en: 'Reduced well-being', el: 'Μειωμένη ευεξία' },
      meaning: {
        en: 'Your answers suggest your well-being has been lower than it could be. The PHQ-9 can help you see whether there is more to it.',
        el: 'Οι απαντήσεις σας δείχνουν ότι η ευεξία σας ήταν χαμηλότερη από ό,τι θα μπορούσε. Το PHQ-9 μπορεί να σας βοηθήσει να δείτε αν υπάρχει κάτι περισσότερο.',
      },
    },
    {
      key: 'good',
      min: 51,
      max: 100,
      level: 0,
      label: { en: 'Good well-being', el: 'Καλή ευεξία' },
      meaning: {
        en: 'Your answers suggest your well-being has been good over the last two weeks.',
        el: 'Οι απαντήσεις σας δείχνουν ότι η ευεξία σας ήταν καλή τις τελευταίες δύο εβδομάδες.',
      },
    },
  ],
  note: SCREENING_NOTE,
  attribution: {
    en: 'WHO-5 Well-Being Index © Psychiatric Research Unit, WHO Collaborating Centre in Mental Health, Frederiksborg General Hospital, Denmark. Free to use.',
    el: 'Δείκτης Ευεξίας WHO-5 © Psychiatric Research Unit, WHO Collaborating Centre in Mental Health, Frederiksborg General Hospital, Δανία. Ελεύθερη χρήση. Ελληνική απόδοση: μετάφραση της εφαρμογής.',
  },
};

const FREQUENCY: readonly SurveyOption[] = [
  { value: 0, label: { en: 'Never', el: 'Ποτέ' } },
  { value: 1, label: { en: 'Rarely', el: 'Σπάνια' } },
  { value: 2, label: { en: 'Sometimes', el: 'Μερικές φορές' } },
  { value: 3, label: { en: 'Often', el: 'Συχνά' } },
  { value: 4, label: { en: 'Always', el: 'Πάντα' } },
];

/**
 * The default lifestyle and well-being questions of the profile questionnaire survey (an
 * organisation may choose its own): higher is better; "stressed" counts in reverse.
 */
export const LIFESTYLE: SurveyDefinition = {
  key: 'profile-questionnaire',
  title: { en: 'Lifestyle and well-being', el: 'Τρόπος ζωής και ευεξία' },
  summary: {
    en: 'Six questions about sleep, activity, food, stress and the people around you.',
    el: 'Έξι ερωτήσεις για τον ύπνο, τη δραστηριότητα, τη διατροφή, το άγχος και τους ανθρώπους γύρω σας.',
  },
  instructions: {
    en: 'Over the last two weeks, how often was each of these true for you?',
    el: 'Τις τελευταίες δύο εβδομάδες, πόσο συχνά ίσχυε για εσάς καθένα από τα παρακάτω;',
  },
  scale: FREQUENCY,
  items: [
    { id: 'sleep', text: { en: 'I slept well and woke up rested', el: 'Κοιμόμουν καλά και ξυπνούσα ξεκούραστος/η' } },
    { id: 'activity', text: { en: 'I was physically active for at least 30 minutes a day', el: 'Ήμουν σωματικά δραστήριος/α για τουλάχιστον 30 λεπτά την ημέρα' } },
    { id: 'food', text: { en: 'I ate regular meals with fruit and vegetables', el: 'Έτρωγα τακτικά γεύματα με φρούτα και λαχανικά' } },
    { id: 'stress', reverse: true, text: { en: 'I felt stressed or overwhelmed', el: 'Ένιωθα άγχος ή ότι δεν τα βγάζω πέρα' } },
    { id: 'social', text: { en: 'I spent time with people I feel close to', el: 'Περνούσα χρόνο με ανθρώπους με τους οποίους νιώθω κοντά' } },
    { id: 'enjoy', text: { en: 'I made time for things I enjoy', el: 'Έβρισκα χρόνο για πράγματα που μου αρέσουν' } },
  ],
  higherIsBetter: true,
  bands: [
    {
      key: 'needs-attention',
      min: 0,
      max: 11,
      level: 2,
      label: { en: 'Needs some attention', el: 'Χρειάζεται λίγη προσοχή' },
      meaning: {
        en: 'Several everyday habits that protect well-being have been hard lately. Small steps help: pick one area to work on, and talk to someone if you feel low.',
        el: 'Αρκετές καθημερινές συνήθειες που προστατεύουν την ευεξία ήταν δύσκολες τελευταία. Τα μικρά βήματα βοηθούν: διαλέξτε έναν τομέα για να ξεκινήσετε και μιλήστε με κάποιον αν νιώθετε πεσμένος/η.',
      },
    },
    {
      key: 'fair',
      min: 12,
      max: 17,
      level: 1,
      label: { en: 'Fair', el: 'Μέτρια' },
      meaning: {
        en: 'Some habits are going well and some less so. Look at the answers below to see where a change would help most.',
        el: 'Κάποιες συνήθειες πάνε καλά και κάποιες λιγότερο. Δείτε τις απαντήσεις παρακάτω για το πού θα βοηθούσε περισσότερο μια αλλαγή.',
      },
    },
    {
      key: 'good',
      min: 18,
      max: 24,
      level: 0,
      label: { en: 'Good', el: 'Καλή' },
      meaning: {
        en: 'Your everyday habits have been supporting your well-being. Keep it up.',
        el: 'Οι καθημερινές σας συνήθειες στηρίζουν την ευεξία σας. Συνεχίστε έτσι.',
      },
    },
  ],
  note: {
    en: 'This is a check-in on everyday habits, not a medical assessment.',
    el: 'Πρόκειται για μια ματιά στις καθημερινές συνήθειες, όχι για ιατρική αξιολόγηση.',
  },
};

/** Northwind's own weekly well-being check (the organisation's choice for its general survey). */
export const NORTHWIND_GENERAL: SurveyDefinition = {
  key: 'general',
  title: { en: 'Weekly well-being check', el: 'Εβδομαδιαίος έλεγχος ευεξίας' },
  summary: {
    en: 'Five short statements about the last week, from the Northwind care team.',
    el: 'Πέντε σύντομες δηλώσεις για την τελευταία εβδομάδα, από την ομάδα φροντίδας της Northwind.',
  },
  instructions: {
    en: 'Over the last week, how often was each of these true for you?',
    el: 'Την τελευταία εβδομάδα, πόσο συχνά ίσχυε για εσάς καθένα από τα παρακάτω;',
  },
  scale: FREQUENCY,
  items: [
    { id: 'hopeful', text: { en: 'I felt hopeful about the future', el: 'Ένιωθα αισιοδοξία για το μέλλον' } },
    { id: 'coping', text: { en: 'I coped well with everyday problems', el: 'Αντιμετώπιζα καλά τα καθημερινά προβλήματα' } },
    { id: 'connected', text: { en: 'I felt connected to other people', el: 'Ένιωθα ότι έχω δεσμούς με άλλους ανθρώπους' } },
    { id: 'clear', text: { en: 'I was able to think clearly', el: 'Μπορούσα να σκέφτομαι καθαρά' } },
    { id: 'lonely', reverse: true, text: { en: 'I felt lonely', el: 'Ένιωθα μοναξιά' } },
  ],
  higherIsBetter: true,
  bands: [
    {
      key: 'low',
      min: 0,
      max: 9,
      level: 2,
      label: { en: 'A hard week', el: 'Μια δύσκολη εβδομάδα' },
      meaning: {
        en: 'It sounds like this has been a hard week. Talking to someone can help; the Northwind team is here for you.',
        el: 'Φαίνεται ότι ήταν μια δύσκολη εβδομάδα. Βοηθά να μιλήσετε με κάποιον· η ομάδα της Northwind είναι εδώ για εσάς.',
      },
    },
    {
      key: 'mixed',
      min: 10,
      max: 14,
      level: 1,
      label: { en: 'A mixed week', el: 'Μια εβδομάδα με σκαμπανεβάσματα' },
      meaning: {
        en: 'Some things went well and some were harder. Notice what helped, and check in again next week.',
        el: 'Κάποια πράγματα πήγαν καλά και κάποια ήταν πιο δύσκολα. Προσέξτε τι σας βοήθησε και κάντε ξανά τον έλεγχο την επόμενη εβδομάδα.',
      },
    },
    {
      key: 'good',
      min: 15,
      max: 20,
      level: 0,
      label: { en: 'A good week', el: 'Μια καλή εβδομάδα' },
      meaning: {
        en: 'Your answers suggest a good week for your well-being.',
        el: 'Οι απαντήσεις σας δείχνουν μια καλή εβδομάδα για την ευεξία σας.',
      },
    },
  ],
  note: {
    en: 'This is a check-in on how you have been, not a medical assessment.',
    el: 'Πρόκειται για μια ματιά στο πώς είστε, όχι για ιατρική αξιολόγηση.',
  },
};

/** Northwind's profile questionnaire survey: a short check of everyday habits. */
export const NORTHWIND_PROFILE: SurveyDefinition = {
  ...LIFESTYLE,
  title: { en: 'Everyday habits', el: 'Καθημερινές συνήθειες' },
  summary: {
    en: 'Four questions about sleep, movement, food and rest.',
    el: 'Τέσσερις ερωτήσεις για τον ύπνο, την κίνηση, τη διατροφή και την ξεκούραση.',
  },
  items: LIFESTYLE.items.filter((i) => ['sleep', 'activity', 'food', 'enjoy'].includes(i.id)),
  bands: [
    { ...LIFESTYLE.bands[0]!, max: 7 },
    { ...LIFESTYLE.bands[1]!, min: 8, max: 11 },
    { ...LIFESTYLE.bands[2]!, min: 12, max: 16 },
  ],
};
