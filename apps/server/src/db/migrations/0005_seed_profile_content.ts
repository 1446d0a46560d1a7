import type { Kysely } from 'kysely';

/**
 * Default profile questions and welcome messages for every organisation (org_id null); an
 * organisation may add its own rows. Options of choice and boolean questions are
 * [{key, en, el}]; a boolean's answer is "true" or "false". {{orgName}} in a welcome message is
 * replaced by the reader's organisation.
 */

interface SeedTables {
  profile_questions: { org_id: number | null; position: number; question_type: string; text_en: string; text_el: string; options: string };
  welcome_messages: { org_id: number | null; position: number; title_en: string; title_el: string; message_en: string; message_el: string };
}

const option = (key: string, en: string, el: string = en) => ({ key, en, el });
const YES_NO = [option('true', 'Yes', 'Ναι'), option('false', 'No', 'Όχι')];
const BLOOD_TYPES = [
  ...['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'].map((t) => option(t, t)),
  option('unknown', "I don't know", 'Δεν γνωρίζω'),
];

const QUESTIONS = [
  { question_type: 'choice', text_en: 'What is your blood type?', text_el: 'Ποια είναι η ομάδα αίματός σας;', options: BLOOD_TYPES },
  { question_type: 'boolean', text_en: 'Do you smoke?', text_el: 'Καπνίζετε;', options: YES_NO },
  {
    question_type: 'text',
    text_en: 'Do you have any allergies (medicines, foods or other)?',
    text_el: 'Έχετε κάποια αλλεργία (σε φάρμακα, τροφές ή άλλο);',
    options: [],
  },
  {
    question_type: 'text',
    text_en: 'Emergency contact (name and phone number)',
    text_el: 'Επαφή έκτακτης ανάγκης (όνομα και αριθμός τηλεφώνου)',
    options: [],
  },
  {
    question_type: 'text',
    text_en: 'Your primary care doctor (name and contact details)',
    text_el: 'Ο προσωπικός σας γιατρός (όνομα και στοιχεία επικοινωνίας)',
    options: [],
  },
];

const MESSAGES = [
  {
    title_en: 'Welcome to {{orgName}}',
    title_el: 'Καλώς ήρθατε στο {{orgName}}',
    message_en:
      'This is your personal health record: keep your health information in one safe place and share it with your family, doctors and other providers when you choose.',
    message_el:
      'Αυτός είναι ο προσωπικός σας φάκελος υγείας: κρατήστε τις πληροφορίες της υγείας σας σε ένα ασφαλές μέρος και μοιραστείτε τις με την οικογένειά σας, τους γιατρούς σας και άλλους επαγγελματίες υγείας όποτε το επιλέξετε.',
  },
  {
    title_en: 'How to start',
    title_el: 'Πώς να ξεκινήσετε',
    message_en:
      'Follow the setup guide: complete your profile, turn on two-step verification, answer a few health questions and add your first health record. You can minimise the guide and come back to it at any time.',
    message_el:
      'Ακολουθήστε τον οδηγό πρώτων βημάτων: συμπληρώστε το προφίλ σας, ενεργοποιήστε την επαλήθευση δύο βημάτων, απαντήστε σε μερικές ερωτήσεις υγείας και προσθέστε την πρώτη σας καταχώριση υγείας. Μπορείτε να ελαχιστοποιήσετε τον οδηγό και να επιστρέψετε σε αυτόν οποιαδήποτε στιγμή.',
  },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const seed = db as unknown as Kysely<SeedTables>;
  await seed
    .insertInto('profile_questions')
    .values(QUESTIONS.map((q, i) => ({ ...q, org_id: null, position: (i + 1) * 10, options: JSON.stringify(q.options) })))
    .execute();
  await seed
    .insertInto('welcome_messages')
    .values(MESSAGES.map((m, i) => ({ ...m, org_id: null, position: (i + 1) * 10 })))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const seed = db as unknown as Kysely<SeedTables>;
  await seed
    .deleteFrom('profile_questions')
    .where('org_id', 'is', null)
    .where(
      'text_en',
      'in',
      QUESTIONS.map((q) => q.text_en),
    )
    .execute();
  await seed
    .deleteFrom('welcome_messages')
    .where('org_id', 'is', null)
    .where(
      'title_en',
      'in',
      MESSAGES.map((m) => m.title_en),
    )
    .execute();
}
