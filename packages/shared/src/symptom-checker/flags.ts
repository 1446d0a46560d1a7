import type { SourceId } from './sources';
import type { Applies, Bilingual } from './types';

/** The level a red flag answered "yes" leads to: call the emergency number now, or urgent care today. */
export const FLAG_LEVELS = ['urgent', 'emergency'] as const;
export type FlagLevel = (typeof FLAG_LEVELS)[number];

export interface RedFlag {
  /** The question, asked yes/no, in plain words. */
  question: Bilingual;
  level: FlagLevel;
  /** The published guidance it comes from (sources.ts). */
  source: SourceId;
  /** Asked only of these people (a baby's age, a woman who could be pregnant). */
  for?: Applies;
}

/**
 * The red flags, as data. A complaint lists the ones it asks (complaints.ts); one flag may
 * belong to several complaints. Any flag answered yes wins over everything else.
 */
export const RED_FLAGS = {
  // Heart attack (AHA warning signs; NHS heart attack; NHS when to call 999)
  'chest-pain-spreading': {
    question: { en: 'Does the pain spread to your arm, jaw, neck, back or stomach?', el: 'Απλώνεται ο πόνος στο χέρι, στο σαγόνι, στον λαιμό, στην πλάτη ή στο στομάχι;' },
    level: 'emergency',
    source: 'aha-heart-attack',
  },
  'chest-pain-pressure': {
    question: { en: 'Does your chest feel tight, heavy or squeezed, like pressure?', el: 'Νιώθετε το στήθος σφιγμένο, βαρύ ή σαν να το πιέζει κάτι;' },
    level: 'emergency',
    source: 'nhs-heart-attack',
  },
  'chest-pain-with-symptoms': {
    question: {
      en: 'With the pain, are you short of breath, sweating, feeling sick or lightheaded?',
      el: 'Μαζί με τον πόνο, λαχανιάζετε, ιδρώνετε, έχετε ναυτία ή νιώθετε ζαλάδα;',
    },
    level: 'emergency',
    source: 'aha-heart-attack',
  },
  // Stroke (BE FAST)
  'stroke-signs': {
    question: {
      en: 'Is there sudden loss of balance or eyesight, a drooping face, weakness in an arm or leg, or trouble speaking?',
      el: 'Υπάρχει ξαφνική απώλεια ισορροπίας ή όρασης, στραβό («πεσμένο») πρόσωπο, αδυναμία σε χέρι ή πόδι, ή δυσκολία στην ομιλία;',
    },
    level: 'emergency',
    source: 'be-fast-stroke',
  },
  // Headache
  'thunderclap-headache': {
    question: { en: 'Did a very bad headache start suddenly, like the worst you have ever had?', el: 'Ξεκίνησε ξαφνικά ένας πολύ δυνατός πονοκέφαλος, ο χειρότερος που είχατε ποτέ;' },
    level: 'emergency',
    source: 'nhs-headaches',
  },
  'stiff-neck-fever': {
    question: {
      en: 'Do you have a stiff neck, a high temperature, or does light hurt your eyes?',
      el: 'Έχετε πιασμένο (δύσκαμπτο) αυχένα, υψηλό πυρετό, ή σας ενοχλεί το φως στα μάτια;',
    },
    level: 'emergency',
    source: 'nhs-meningitis',
  },
  'after-head-injury': {
    question: { en: 'Did it start after a blow to the head, a fall or an accident?', el: 'Ξεκίνησε μετά από χτύπημα στο κεφάλι, πτώση ή ατύχημα;' },
    level: 'urgent',
    source: 'nhs-head-injury',
  },
  // Fever, sepsis, meningitis
  'rash-not-fading': {
    question: {
      en: 'Is there a rash that does not fade when you press a glass against it?',
      el: 'Υπάρχει εξάνθημα που δεν ξεθωριάζει όταν το πιέζετε με ένα γυάλινο ποτήρι;',
    },
    level: 'emergency',
    source: 'nhs-meningitis',
  },
  'confused-drowsy': {
    question: { en: 'Is the person confused, very drowsy or hard to wake up?', el: 'Είναι το άτομο μπερδεμένο, πολύ νυσταγμένο ή ξυπνά με δυσκολία;' },
    level: 'emergency',
    source: 'nice-ng51',
  },
  'mottled-skin': {
    question: { en: 'Is the skin, lips or tongue pale, blue, grey or blotchy?', el: 'Είναι το δέρμα, τα χείλη ή η γλώσσα χλωμά, μπλε, γκρίζα ή με κηλίδες;' },
    level: 'emergency',
    source: 'nice-ng51',
  },
  'seizure': {
    question: { en: 'Has there been a fit (seizure)?', el: 'Έγινε κάποια κρίση σπασμών;' },
    level: 'emergency',
    source: 'who-danger-signs',
  },
  'baby-under-3-months': {
    question: { en: 'Is the baby under 3 months old with a temperature of 38°C or higher?', el: 'Είναι το μωρό κάτω των 3 μηνών με θερμοκρασία 38°C ή περισσότερο;' },
    level: 'urgent',
    source: 'nice-ng143',
    for: { maxAge: 0 },
  },
  'not-drinking-or-peeing': {
    question: {
      en: 'Has the person stopped drinking, or not passed urine (or had a wet nappy) for 12 hours or more?',
      el: 'Έχει σταματήσει να πίνει υγρά ή δεν έχει ουρήσει (ή βρέξει πάνα) για 12 ώρες ή περισσότερο;',
    },
    level: 'urgent',
    source: 'nhs-dehydration',
  },
  // Breathing
  'severe-breathing': {
    question: {
      en: 'Is it very hard to breathe: gasping, unable to say a few words, or the ribs pulling in with each breath?',
      el: 'Δυσκολεύεται πολύ η αναπνοή: λαχάνιασμα, αδυναμία να πείτε λίγες λέξεις, ή τα πλευρά «ρουφιούνται» σε κάθε ανάσα;',
    },
    level: 'emergency',
    source: 'nhs-999',
  },
  'breathing-chest-pain': {
    question: { en: 'Do you also have pain or tightness in your chest?', el: 'Έχετε επίσης πόνο ή σφίξιμο στο στήθος;' },
    level: 'emergency',
    source: 'nhs-shortness-of-breath',
  },
  'coughing-blood': {
    question: { en: 'Are you coughing up blood?', el: 'Βήχετε αίμα;' },
    level: 'urgent',
    source: 'nhs-cough',
  },
  'hot-and-shivery': {
    question: { en: 'Do you have a high temperature and feel hot and shivery, or very unwell?', el: 'Έχετε υψηλό πυρετό και νιώθετε ζέστη και ρίγη, ή πολύ αδιαθεσία;' },
    level: 'urgent',
    source: 'nhs-common-cold',
  },
  'cannot-swallow-drooling': {
    question: {
      en: 'Are you unable to swallow, drooling, or making a high-pitched sound as you breathe?',
      el: 'Δεν μπορείτε να καταπιείτε, τρέχουν σάλια, ή βγαίνει ένας ψιλός σφυριχτός ήχος όταν αναπνέετε;',
    },
    level: 'emergency',
    source: 'nhs-sore-throat',
  },
  'weak-immune-system': {
    question: {
      en: 'Is your immune system weakened (for example by chemotherapy, steroids or a condition)?',
      el: 'Έχετε εξασθενημένο ανοσοποιητικό (για παράδειγμα λόγω χημειοθεραπείας, κορτιζόνης ή κάποιας πάθησης);',
    },
    level: 'urgent',
    source: 'nhs-sore-throat',
  },
  // Allergy
  'anaphylaxis-signs': {
    question: {
      en: 'Is there swelling of the lips, tongue or throat, or trouble breathing or swallowing?',
      el: 'Υπάρχει πρήξιμο στα χείλη, στη γλώσσα ή στον λαιμό, ή δυσκολία στην αναπνοή ή στην κατάποση;',
    },
    level: 'emergency',
    source: 'nhs-anaphylaxis',
  },
  'rash-blistering': {
    question: { en: 'Is the skin blistering or peeling over a large area?', el: 'Βγάζει το δέρμα φουσκάλες ή ξεφλουδίζει σε μεγάλη έκταση;' },
    level: 'urgent',
    source: 'nhs-rashes-children',
  },
  // Stomach
  'vomiting-blood': {
    question: { en: 'Are you vomiting blood, or does the vomit look like coffee grounds?', el: 'Κάνετε εμετό με αίμα, ή μοιάζει ο εμετός με κατακάθι καφέ;' },
    level: 'emergency',
    source: 'nhs-stomach-ache',
  },
  'black-or-bloody-stool': {
    question: { en: 'Is your poo black and sticky, or is there blood in it?', el: 'Είναι τα κόπρανα μαύρα και κολλώδη, ή έχουν αίμα;' },
    level: 'urgent',
    source: 'nhs-stomach-ache',
  },
  'sudden-severe-abdominal-pain': {
    question: {
      en: 'Did very bad pain start suddenly, or does your belly hurt a lot when touched or feel hard?',
      el: 'Ξεκίνησε ξαφνικά πολύ δυνατός πόνος, ή πονά πολύ η κοιλιά όταν την αγγίζετε ή είναι σκληρή;',
    },
    level: 'emergency',
    source: 'nhs-stomach-ache',
  },
  'could-be-pregnant': {
    question: {
      en: 'Could you be pregnant (for example a missed period), with pain low on one side or bleeding?',
      el: 'Μπορεί να είστε έγκυος (για παράδειγμα καθυστέρηση περιόδου), με πόνο χαμηλά στη μία πλευρά ή αιμορραγία;',
    },
    level: 'urgent',
    source: 'nhs-ectopic-pregnancy',
    for: { sexes: ['female'], minAge: 10, maxAge: 60 },
  },
  'swallowed-poison': {
    question: { en: 'Could something poisonous have been swallowed?', el: 'Μπορεί να καταπόθηκε κάτι δηλητηριώδες;' },
    level: 'emergency',
    source: 'nhs-999',
  },
  // Back (cauda equina)
  'saddle-numbness': {
    question: {
      en: 'Is there numbness or tingling around your bottom or genitals?',
      el: 'Υπάρχει μούδιασμα ή μυρμήγκιασμα γύρω από τους γλουτούς ή τα γεννητικά όργανα;',
    },
    level: 'emergency',
    source: 'nhs-cauda-equina',
  },
  'bladder-bowel-control': {
    question: {
      en: 'Have you lost control of your bladder or bowels, or are you unable to pee?',
      el: 'Χάσατε τον έλεγχο της ουροδόχου κύστης ή του εντέρου, ή δεν μπορείτε να ουρήσετε;',
    },
    level: 'emergency',
    source: 'nhs-cauda-equina',
  },
  'legs-weakness': {
    question: { en: 'Are both legs weak or numb, or is walking suddenly hard?', el: 'Είναι και τα δύο πόδια αδύναμα ή μουδιασμένα, ή δυσκολεύεστε ξαφνικά να περπατήσετε;' },
    level: 'emergency',
    source: 'nhs-cauda-equina',
  },
  'back-pain-fever': {
    question: { en: 'Do you also have a high temperature or feel very unwell?', el: 'Έχετε επίσης υψηλό πυρετό ή νιώθετε πολύ άρρωστοι;' },
    level: 'urgent',
    source: 'nhs-back-pain',
  },
  'after-fall-or-injury': {
    question: { en: 'Did it start after a fall, an accident or an injury?', el: 'Ξεκίνησε μετά από πτώση, ατύχημα ή τραυματισμό;' },
    level: 'urgent',
    source: 'nhs-back-pain',
  },
  // Dizziness, palpitations
  'fainted': {
    question: { en: 'Did you faint or black out?', el: 'Λιποθυμήσατε ή χάσατε τις αισθήσεις σας;' },
    level: 'urgent',
    source: 'nhs-dizziness',
  },
  'palpitations-with-symptoms': {
    question: {
      en: 'With the heartbeat, do you have chest pain, shortness of breath, or did you faint?',
      el: 'Μαζί με τους χτύπους της καρδιάς, έχετε πόνο στο στήθος, δύσπνοια, ή λιποθυμήσατε;',
    },
    level: 'emergency',
    source: 'nhs-palpitations',
  },
  // Ear, eye
  'behind-ear-swelling': {
    question: {
      en: 'Is there swelling, redness or pain behind the ear, or does the ear stick out?',
      el: 'Υπάρχει πρήξιμο, κοκκίνισμα ή πόνος πίσω από το αυτί, ή πετάγεται το αυτί προς τα έξω;',
    },
    level: 'urgent',
    source: 'nhs-earache',
  },
  'sudden-vision-loss': {
    question: { en: 'Have you suddenly lost sight, or has your sight suddenly changed?', el: 'Χάσατε ξαφνικά την όραση, ή άλλαξε ξαφνικά η όρασή σας;' },
    level: 'emergency',
    source: 'nhs-red-eye',
  },
  'chemical-in-eye': {
    question: { en: 'Has a chemical got into the eye, or did something hit it at speed?', el: 'Μπήκε κάποια χημική ουσία στο μάτι, ή το χτύπησε κάτι με ταχύτητα;' },
    level: 'urgent',
    source: 'nhs-eye-injuries',
  },
  'painful-red-eye': {
    question: {
      en: 'Is the eye very painful and red, with light hurting it or blurred sight?',
      el: 'Πονά πολύ το μάτι και είναι κόκκινο, σας ενοχλεί το φως ή βλέπετε θολά;',
    },
    level: 'urgent',
    source: 'nhs-red-eye',
  },
  // Injuries
  'bone-deformed': {
    question: {
      en: 'Is a bone sticking out, or is the arm or leg an odd shape or cold and pale?',
      el: 'Βγαίνει κόκαλο προς τα έξω, ή έχει το χέρι ή το πόδι περίεργο σχήμα ή είναι κρύο και χλωμό;',
    },
    level: 'emergency',
    source: 'nhs-broken-bones',
  },
  'cannot-bear-weight': {
    question: {
      en: 'Are you unable to put weight on it or move it, or did you hear a crack when it happened?',
      el: 'Δεν μπορείτε να πατήσετε ή να το κουνήσετε, ή ακούσατε ένα «κρακ» όταν έγινε;',
    },
    level: 'urgent',
    source: 'nhs-sprains',
  },
  'large-or-deep-burn': {
    question: {
      en: 'Is the burn larger than the injured person’s hand, deep (white or charred skin), or on the face, hands, feet or genitals?',
      el: 'Είναι το έγκαυμα μεγαλύτερο από την παλάμη του τραυματία, βαθύ (άσπρο ή απανθρακωμένο δέρμα), ή στο πρόσωπο, στα χέρια, στα πόδια ή στα γεννητικά όργανα;',
    },
    level: 'urgent',
    source: 'nhs-burns',
  },
  'chemical-electrical-burn': {
    question: { en: 'Was it a chemical or electrical burn?', el: 'Ήταν έγκαυμα από χημική ουσία ή από ρεύμα;' },
    level: 'urgent',
    source: 'nhs-burns',
  },
  // Urinary
  'kidney-infection-signs': {
    question: {
      en: 'Do you have pain in your back or side below the ribs, with a high temperature or shivering?',
      el: 'Έχετε πόνο στη μέση ή στο πλάι κάτω από τα πλευρά, με υψηλό πυρετό ή ρίγη;',
    },
    level: 'urgent',
    source: 'nhs-kidney-infection',
  },
  'blood-in-urine': {
    question: { en: 'Is there blood in your pee?', el: 'Υπάρχει αίμα στα ούρα;' },
    level: 'urgent',
    source: 'nhs-uti',
  },
  // Mental health
  'thoughts-of-acting-on-suicide': {
    question: {
      en: 'Have you seriously harmed yourself, or do you feel you may act on thoughts of ending your life now?',
      el: 'Έχετε βλάψει σοβαρά τον εαυτό σας, ή νιώθετε ότι μπορεί τώρα να κάνετε πράξη σκέψεις να βάλετε τέλος στη ζωή σας;',
    },
    level: 'emergency',
    source: 'nhs-mental-health-urgent',
  },
  'thoughts-of-self-harm': {
    question: {
      en: 'Have you had thoughts of harming yourself or of ending your life?',
      el: 'Έχετε κάνει σκέψεις να βλάψετε τον εαυτό σας ή να βάλετε τέλος στη ζωή σας;',
    },
    level: 'urgent',
    source: 'nhs-mental-health-urgent',
  },
  // Teeth
  'facial-swelling-breathing': {
    question: {
      en: 'Is there swelling of the face, eye or neck that makes it hard to breathe, swallow or open your eye?',
      el: 'Υπάρχει πρήξιμο στο πρόσωπο, στο μάτι ή στον λαιμό που δυσκολεύει την αναπνοή, την κατάποση ή το άνοιγμα του ματιού;',
    },
    level: 'emergency',
    source: 'nhs-dental-abscess',
  },
  'facial-swelling-fever': {
    question: { en: 'Is your face swollen, with a high temperature?', el: 'Είναι πρησμένο το πρόσωπο, με υψηλό πυρετό;' },
    level: 'urgent',
    source: 'nhs-toothache',
  },
  // Periods, testicles
  'heavy-bleeding': {
    question: {
      en: 'Are you soaking through a pad or tampon every hour, or feeling faint?',
      el: 'Μουσκεύετε μια σερβιέτα ή ένα ταμπόν κάθε ώρα, ή νιώθετε ότι θα λιποθυμήσετε;',
    },
    level: 'urgent',
    source: 'nhs-heavy-periods',
  },
  'sudden-testicle-pain': {
    question: { en: 'Did very bad pain in a testicle start suddenly?', el: 'Ξεκίνησε ξαφνικά πολύ δυνατός πόνος σε έναν όρχι;' },
    level: 'emergency',
    source: 'nhs-testicle-pain',
  },
  'testicle-swelling-fever': {
    question: { en: 'Is the testicle swollen, with a high temperature or feeling sick?', el: 'Είναι πρησμένος ο όρχις, με υψηλό πυρετό ή ναυτία;' },
    level: 'urgent',
    source: 'nhs-testicle-pain',
  },
  // Tiredness
  'breathless-at-rest': {
    question: { en: 'Are you short of breath even at rest?', el: 'Λαχανιάζετε ακόμη και όταν ξεκουράζεστε;' },
    level: 'urgent',
    source: 'nhs-shortness-of-breath',
  },
} as const satisfies Record<string, RedFlag>;

export type FlagId = keyof typeof RED_FLAGS;
export const FLAG_IDS = Object.keys(RED_FLAGS) as [FlagId, ...FlagId[]];
