import type { Transaction } from 'kysely';
import type { Database } from '../schema';

const p = (...paragraphs: string[]) => paragraphs.join('\n\n');

/**
 * Each demo organisation's own help articles (beside every organisation's, migration 0018):
 * how its support works, and where to turn in a crisis where it is. Northwind has no
 * telehealth, so it hides that article.
 */
export const DEMO_HELP_ARTICLES: Record<string, Array<{ slug: string; position: number; hidden?: boolean; feature?: string | null; tags?: string[]; title_en?: string; title_el?: string; body_en?: string; body_el?: string }>> = {
  healthbook: [
    {
      slug: 'healthbook-support-hours',
      position: 5,
      feature: 'help',
      tags: ['support', 'contact', 'hours', 'phone', 'email', 'υποστήριξη', 'επικοινωνία', 'ωράριο', 'τηλέφωνο'],
      title_en: 'HealthBook+ support: hours and how we answer',
      title_el: 'Υποστήριξη HealthBook+: ωράριο και πώς απαντάμε',
      body_en: p(
        'Our support team answers questions about your account, your health record and the app, Monday to Friday, 8 am to 6 pm Mountain Time.',
        '- Write to support@healthbook.example, or use the form on the Help page: we answer by e-mail within one working day.\n- Call +1 303 555 0100 during those hours.',
        'Support cannot give medical advice. For a question about your health, book a telehealth visit or start a chat with a provider.',
      ),
      body_el: p(
        'Η ομάδα υποστήριξης απαντά σε ερωτήσεις για τον λογαριασμό σας, τον φάκελο υγείας σας και την εφαρμογή, Δευτέρα έως Παρασκευή, 8 π.μ. έως 6 μ.μ. ώρα Ορεινής Ζώνης ΗΠΑ (Ντένβερ).',
        '- Γράψτε στο support@healthbook.example ή χρησιμοποιήστε τη φόρμα της σελίδας Βοήθειας: απαντάμε με e-mail μέσα σε μία εργάσιμη ημέρα.\n- Καλέστε το +1 303 555 0100 τις ίδιες ώρες.',
        'Η υποστήριξη δεν μπορεί να δώσει ιατρικές συμβουλές. Για ερώτηση σχετικά με την υγεία σας, κλείστε ραντεβού τηλεϊατρικής ή ξεκινήστε συνομιλία με επαγγελματία υγείας.',
      ),
    },
    {
      slug: 'healthbook-crisis-support',
      position: 6,
      feature: null,
      tags: ['crisis', '988', 'suicide', 'emergency', '911', 'κρίση', 'αυτοκτονία', 'έκτακτη ανάγκη'],
      title_en: 'In a crisis: 988 and 911',
      title_el: 'Σε κρίση: 988 και 911',
      body_en: p(
        'If you are thinking about harming yourself, or you are worried about someone, call or text 988 (the 988 Suicide & Crisis Lifeline), any time, day or night.',
        'If someone is in immediate danger, call 911.',
      ),
      body_el: p(
        'Αν σκέφτεστε να βλάψετε τον εαυτό σας ή ανησυχείτε για κάποιον, καλέστε ή στείλτε μήνυμα στο 988 (γραμμή 988 για την αυτοκτονία και την κρίση), οποιαδήποτε ώρα, μέρα ή νύχτα.',
        'Αν κάποιος κινδυνεύει άμεσα, καλέστε το 911.',
      ),
    },
  ],
  northwind: [
    {
      slug: 'northwind-support',
      position: 5,
      feature: 'help',
      tags: ['support', 'contact', 'hours', 'phone', 'υποστήριξη', 'επικοινωνία', 'ωράριο', 'τηλέφωνο'],
      title_en: 'Northwind Health support and crisis lines',
      title_el: 'Υποστήριξη Northwind Health και γραμμές βοήθειας',
      body_en: p(
        'Our support team answers questions about your account and the app, Monday to Friday, 9:00 to 17:00 (Athens time).',
        '- Write to help@northwind.example or use the form on the Help page.\n- Call +30 210 555 0100.',
        'In an emergency call 112. If you are thinking about harming yourself, call 1018 (KLIMAKA suicide prevention line, 24/7).',
      ),
      body_el: p(
        'Η ομάδα υποστήριξης απαντά σε ερωτήσεις για τον λογαριασμό σας και την εφαρμογή, Δευτέρα έως Παρασκευή, 9:00 έως 17:00 (ώρα Αθήνας).',
        '- Γράψτε στο help@northwind.example ή χρησιμοποιήστε τη φόρμα της σελίδας Βοήθειας.\n- Καλέστε το +30 210 555 0100.',
        'Σε επείγουσα περίπτωση καλέστε το 112. Αν σκέφτεστε να βλάψετε τον εαυτό σας, καλέστε το 1018 (γραμμή παρέμβασης για την αυτοκτονία της ΚΛΙΜΑΚΑ, όλο το 24ωρο).',
      ),
    },
    // Northwind offers no telehealth visits: the article would point nowhere.
    { slug: 'book-a-telehealth-visit', position: 20, hidden: true },
  ],
};

export async function seedDemoHelp(trx: Transaction<Database>, orgIds: Map<string, number>): Promise<void> {
  for (const [org, articles] of Object.entries(DEMO_HELP_ARTICLES)) {
    const orgId = orgIds.get(org);
    if (!orgId) continue;
    await trx
      .insertInto('help_articles')
      .values(articles.map(({ tags, ...a }) => ({ ...a, org_id: orgId, tags: JSON.stringify(tags ?? []) })))
      .execute();
  }
}
