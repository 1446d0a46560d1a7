import { sql, type Kysely } from 'kysely';

/**
 * The help area's articles (feature `help`): rows with org_id null are every organisation's; an
 * organisation adds its own, and hides a default one by adding a row with the same slug and
 * hidden = true. Title and body in English and Greek; the body is plain text (paragraphs
 * separated by a blank line, "- " list items). `feature` names the catalogue feature the
 * article is about (its page is linked while the feature is active). Tags help the search.
 */

interface SeedTables {
  help_articles: {
    org_id: number | null;
    slug: string;
    position: number;
    feature: string | null;
    tags: string;
    title_en: string;
    title_el: string;
    body_en: string;
    body_el: string;
  };
}

export interface HelpArticleSeed {
  slug: string;
  feature: string | null;
  tags: string[];
  title_en: string;
  title_el: string;
  body_en: string;
  body_el: string;
}

const p = (...paragraphs: string[]) => paragraphs.join('\n\n');

export const DEFAULT_HELP_ARTICLES: HelpArticleSeed[] = [
  {
    slug: 'not-for-emergencies',
    feature: null,
    tags: ['emergency', 'urgent', 'danger', 'crisis', 'έκτακτη ανάγκη', 'επείγον', 'κίνδυνος', 'κρίση'],
    title_en: 'This is not for emergencies',
    title_el: 'Δεν είναι για επείγοντα περιστατικά',
    body_en: p(
      'If you or someone else is in danger, or you think it is a medical emergency, call your emergency number now. Do not wait for an answer here.',
      'The help area, the contact form, the assistant, the symptom checker and the live chat are not watched around the clock and cannot send help. Messages to support are answered by e-mail, usually within working days.',
      'If you are having thoughts of harming yourself, call your local crisis line or emergency number, or go to the nearest emergency department. You do not have to go through it alone.',
    ),
    body_el: p(
      'Αν εσείς ή κάποιος άλλος κινδυνεύει, ή πιστεύετε ότι πρόκειται για επείγον ιατρικό περιστατικό, καλέστε τώρα τον αριθμό έκτακτης ανάγκης. Μην περιμένετε απάντηση εδώ.',
      'Η σελίδα βοήθειας, η φόρμα επικοινωνίας, ο βοηθός αναζήτησης, ο έλεγχος συμπτωμάτων και η ζωντανή συνομιλία δεν παρακολουθούνται όλο το εικοσιτετράωρο και δεν μπορούν να στείλουν βοήθεια. Στα μηνύματα προς την υποστήριξη απαντάμε με e-mail, συνήθως τις εργάσιμες ημέρες.',
      'Αν σκέφτεστε να βλάψετε τον εαυτό σας, καλέστε τη γραμμή παρέμβασης για την κρίση ή τον αριθμό έκτακτης ανάγκης, ή πηγαίνετε στο πλησιέστερο τμήμα επειγόντων. Δεν χρειάζεται να το περάσετε μόνοι σας.',
    ),
  },
  {
    slug: 'book-a-telehealth-visit',
    feature: 'teleconsultation',
    tags: ['telehealth', 'appointment', 'video', 'doctor', 'book', 'cancel', 'τηλεϊατρική', 'ραντεβού', 'βιντεοκλήση', 'γιατρός', 'ακύρωση'],
    title_en: 'How to book a telehealth visit',
    title_el: 'Πώς να κλείσετε ραντεβού τηλεϊατρικής',
    body_en: p(
      'A telehealth visit is a video consultation with one of your organisation’s providers. To book one:',
      '- Open Help and choose Teleconsultation.\n- Search by speciality and, if you like, by day, or choose “See all providers”.\n- Open a provider and pick one of their free times. Times are shown in your own time zone.\n- Write a few words about why you would like to talk, then choose Confirm.',
      'You get an e-mail with a calendar invitation, and reminders one day and one hour before. The appointment also appears in your Calendar.',
      'To cancel, open the appointment in your Calendar and choose “Cancel appointment”. The provider is told at once. If a time was taken by someone else while you were booking, choose another one.',
    ),
    body_el: p(
      'Το ραντεβού τηλεϊατρικής είναι μια βιντεοκλήση με έναν από τους επαγγελματίες υγείας του οργανισμού σας. Για να κλείσετε ένα:',
      '- Ανοίξτε τη Βοήθεια και επιλέξτε Τηλεσυμβουλευτική.\n- Αναζητήστε ανά ειδικότητα και, αν θέλετε, ανά ημέρα, ή επιλέξτε «Δείτε όλους τους επαγγελματίες».\n- Ανοίξτε έναν επαγγελματία και διαλέξτε μία από τις ελεύθερες ώρες του. Οι ώρες εμφανίζονται στη δική σας ζώνη ώρας.\n- Γράψτε λίγα λόγια για το γιατί θέλετε να μιλήσετε και επιλέξτε Επιβεβαίωση.',
      'Θα λάβετε e-mail με πρόσκληση ημερολογίου και υπενθυμίσεις μία ημέρα και μία ώρα πριν. Το ραντεβού εμφανίζεται επίσης στο Ημερολόγιό σας.',
      'Για ακύρωση, ανοίξτε το ραντεβού στο Ημερολόγιο και επιλέξτε «Ακύρωση ραντεβού». Ο επαγγελματίας ενημερώνεται αμέσως. Αν κάποιος άλλος έκλεισε την ώρα ενώ κάνατε κράτηση, διαλέξτε άλλη.',
    ),
  },
  {
    slug: 'start-a-live-chat',
    feature: 'live-help',
    tags: ['chat', 'peer coaching', 'coach', 'message', 'live help', 'συνομιλία', 'σύμβουλος', 'μήνυμα', 'ζωντανή βοήθεια'],
    title_en: 'Start a live chat or peer coaching',
    title_el: 'Ξεκινήστε ζωντανή συνομιλία ή συμβουλευτική ομοτίμων',
    body_en: p(
      'Live Help lets you chat securely, in real time, with a peer coach or a provider of your organisation.',
      '- Open Peer Coaching from the menu or from Help.\n- Choose who you would like to talk to and what about, then start the chat.\n- You wait in a short queue: the chat window shows your place. It stays open at the bottom right while you move around the app, and you can minimise it.\n- In the chat you can send messages and attach a PDF or an image.',
      'Choose “Close Chat” when you are done. A copy of every conversation is kept under your past chats.',
      'The chat is not for emergencies. If you or someone else is in danger, call your emergency number.',
    ),
    body_el: p(
      'Η Ζωντανή Βοήθεια σάς επιτρέπει να συνομιλείτε με ασφάλεια, σε πραγματικό χρόνο, με σύμβουλο ομοτίμων ή επαγγελματία υγείας του οργανισμού σας.',
      '- Ανοίξτε τη Συμβουλευτική ομοτίμων από το μενού ή από τη Βοήθεια.\n- Επιλέξτε με ποιον θέλετε να μιλήσετε και για ποιο θέμα και ξεκινήστε τη συνομιλία.\n- Περιμένετε σε μια σύντομη ουρά: το παράθυρο της συνομιλίας δείχνει τη θέση σας. Μένει ανοιχτό κάτω δεξιά όσο κινείστε στην εφαρμογή και μπορείτε να το ελαχιστοποιήσετε.\n- Στη συνομιλία μπορείτε να στέλνετε μηνύματα και να επισυνάπτετε PDF ή εικόνα.',
      'Όταν τελειώσετε, επιλέξτε «Κλείσιμο συνομιλίας». Αντίγραφο κάθε συνομιλίας φυλάσσεται στις προηγούμενες συνομιλίες σας.',
      'Η συνομιλία δεν είναι για επείγοντα. Αν εσείς ή κάποιος άλλος κινδυνεύει, καλέστε τον αριθμό έκτακτης ανάγκης.',
    ),
  },
  {
    slug: 'share-my-record',
    feature: 'share-record',
    tags: ['share', 'sharing', 'link', 'qr code', 'passcode', 'revoke', 'κοινοποίηση', 'σύνδεσμος', 'κωδικός qr', 'ανάκληση'],
    title_en: 'Share my record by link or QR code',
    title_el: 'Κοινοποίηση του φακέλου μου με σύνδεσμο ή κωδικό QR',
    body_en: p(
      'You can share health records or Document Center documents with a doctor, a relative or anyone you choose. Open “Share my record” and choose New share:',
      '- What: whole categories (always as they are when opened) or single records, or documents.\n- Who: the recipient’s name and e-mail address, and the language of their e-mails.\n- How: a link by e-mail (to open it they enter a code we e-mail them at that moment), or a QR code you show them with a passcode. The passcode is shown only once.\n- How long: 1 hour, 1 day, 7 days, 30 days, or until a date up to 90 days away.',
      'Records marked “For my eyes only” are never shown, not even if you make them private after sharing.',
      'Each share’s page shows who opened it and when; you get an e-mail the first time it is opened. You can revoke a share at any time, or send a new link (the old one stops working). After several wrong codes a share locks; a new link or passcode opens it again.',
    ),
    body_el: p(
      'Μπορείτε να μοιραστείτε καταχωρίσεις υγείας ή έγγραφα του Κέντρου Εγγράφων με γιατρό, συγγενή ή όποιον επιλέξετε. Ανοίξτε την «Κοινοποίηση του φακέλου μου» και επιλέξτε Νέα κοινοποίηση:',
      '- Τι: ολόκληρες κατηγορίες (πάντα όπως είναι τη στιγμή που ανοίγονται) ή μεμονωμένες καταχωρίσεις, ή έγγραφα.\n- Σε ποιον: το όνομα και το e-mail του παραλήπτη και τη γλώσσα των μηνυμάτων του.\n- Πώς: σύνδεσμος με e-mail (για να τον ανοίξει, εισάγει έναν κωδικό που του στέλνουμε εκείνη τη στιγμή) ή κωδικός QR που του δείχνετε μαζί με έναν κωδικό πρόσβασης. Ο κωδικός πρόσβασης εμφανίζεται μόνο μία φορά.\n- Για πόσο: 1 ώρα, 1 ημέρα, 7 ημέρες, 30 ημέρες ή έως μια ημερομηνία το πολύ 90 ημέρες μετά.',
      'Οι καταχωρίσεις με την ένδειξη «Μόνο για μένα» δεν εμφανίζονται ποτέ, ακόμη κι αν τις κάνετε ιδιωτικές μετά την κοινοποίηση.',
      'Η σελίδα κάθε κοινοποίησης δείχνει ποιος την άνοιξε και πότε· λαμβάνετε e-mail την πρώτη φορά που ανοίγεται. Μπορείτε να την ανακαλέσετε οποιαδήποτε στιγμή ή να στείλετε νέο σύνδεσμο (ο παλιός παύει να λειτουργεί). Μετά από αρκετούς λανθασμένους κωδικούς η κοινοποίηση κλειδώνει· ένας νέος σύνδεσμος ή κωδικός την ξανανοίγει.',
    ),
  },
  {
    slug: 'export-pdf-or-fhir',
    feature: 'health-records',
    tags: ['export', 'pdf', 'print', 'fhir', 'download', 'import', 'εξαγωγή', 'εκτύπωση', 'λήψη', 'εισαγωγή'],
    title_en: 'Export my record as a PDF or a FHIR file',
    title_el: 'Εξαγωγή του φακέλου μου σε PDF ή αρχείο FHIR',
    body_en: p(
      'PDF: on Health Records choose Export. Pick the categories (or all), optionally a range of dates, and whether to include records marked “For my eyes only” (they are left out unless you turn this on). Choose Export PDF: it opens in a new tab, ready to save or print.',
      'FHIR: FHIR is the format health systems use to exchange records. On Health Records choose “Export and import (FHIR)”, then “Download FHIR file” to get your details and every record in a file other portals can read.',
      'You can also import a FHIR file (a Bundle in JSON, up to 20 MB) from another portal: you see what it holds and choose what to keep before anything is added.',
    ),
    body_el: p(
      'PDF: στις Καταχωρίσεις υγείας επιλέξτε Εξαγωγή. Διαλέξτε τις κατηγορίες (ή όλες), προαιρετικά ένα διάστημα ημερομηνιών, και αν θα συμπεριληφθούν οι καταχωρίσεις «Μόνο για μένα» (παραλείπονται αν δεν το ενεργοποιήσετε). Επιλέξτε Εξαγωγή PDF: ανοίγει σε νέα καρτέλα, έτοιμο για αποθήκευση ή εκτύπωση.',
      'FHIR: το FHIR είναι η μορφή με την οποία τα συστήματα υγείας ανταλλάσσουν φακέλους. Στις Καταχωρίσεις υγείας επιλέξτε «Εξαγωγή και εισαγωγή (FHIR)» και μετά «Λήψη αρχείου FHIR» για να πάρετε τα στοιχεία σας και όλες τις καταχωρίσεις σε αρχείο που διαβάζουν άλλες πύλες.',
      'Μπορείτε επίσης να εισαγάγετε αρχείο FHIR (Bundle σε JSON, έως 20 MB) από άλλη πύλη: βλέπετε τι περιέχει και επιλέγετε τι θα κρατήσετε πριν προστεθεί οτιδήποτε.',
    ),
  },
  {
    slug: 'document-center',
    feature: 'document-center',
    tags: ['documents', 'upload', 'files', 'folders', 'scan', 'photo', 'έγγραφα', 'ανέβασμα', 'αρχεία', 'φάκελοι', 'φωτογραφία'],
    title_en: 'The Document Center',
    title_el: 'Το Κέντρο Εγγράφων',
    body_en: p(
      'The Document Center keeps your medical documents — reports, letters, scans and photos — in folders.',
      '- Upload PDF, PNG, JPEG, GIF, WebP or HEIC files, up to 20 MB each. Photo location and camera details are removed.\n- Make folders, and rename, move or delete documents.\n- Attach a document to a health record, so that it shows with that record.',
      'Deleting a record removes the files uploaded to it, but documents from your Document Center stay there. Documents attached to a private record are never shared.',
    ),
    body_el: p(
      'Το Κέντρο Εγγράφων φυλάει τα ιατρικά σας έγγραφα — γνωματεύσεις, επιστολές, σαρώσεις και φωτογραφίες — σε φακέλους.',
      '- Ανεβάστε αρχεία PDF, PNG, JPEG, GIF, WebP ή HEIC, έως 20 MB το καθένα. Η τοποθεσία και τα στοιχεία της κάμερας αφαιρούνται από τις φωτογραφίες.\n- Δημιουργήστε φακέλους και μετονομάστε, μετακινήστε ή διαγράψτε έγγραφα.\n- Επισυνάψτε ένα έγγραφο σε καταχώριση υγείας, ώστε να εμφανίζεται μαζί της.',
      'Η διαγραφή μιας καταχώρισης αφαιρεί τα αρχεία που ανέβηκαν σε αυτήν, αλλά τα έγγραφα του Κέντρου Εγγράφων μένουν εκεί. Έγγραφα συνημμένα σε ιδιωτική καταχώριση δεν κοινοποιούνται ποτέ.',
    ),
  },
  {
    slug: 'add-a-health-record',
    feature: 'health-records',
    tags: ['record', 'add', 'condition', 'medication', 'allergy', 'private', 'καταχώριση', 'προσθήκη', 'πάθηση', 'φάρμακο', 'αλλεργία', 'ιδιωτική'],
    title_en: 'Add a health record',
    title_el: 'Προσθήκη καταχώρισης υγείας',
    body_en: p(
      'Health Records keeps your health information by category: conditions, medications, allergies, laboratory results, visits, family history and more.',
      '- Open Health Records and choose a category.\n- Choose Add, fill in what you know and save. A date can be as exact as you know it: a year, a month, a day, or “in the past”.\n- Attach files (PDF or images up to 20 MB) to a record, or documents from your Document Center.',
      'Mark a record “For my eyes only” to keep it private: only you can see it, and it is never shared or exported unless you choose to include it in your own PDF or FHIR file.',
    ),
    body_el: p(
      'Οι Καταχωρίσεις υγείας κρατούν τις πληροφορίες της υγείας σας ανά κατηγορία: παθήσεις, φάρμακα, αλλεργίες, εργαστηριακά αποτελέσματα, επισκέψεις, οικογενειακό ιστορικό και άλλα.',
      '- Ανοίξτε τις Καταχωρίσεις υγείας και επιλέξτε κατηγορία.\n- Επιλέξτε Προσθήκη, συμπληρώστε ό,τι γνωρίζετε και αποθηκεύστε. Η ημερομηνία μπορεί να είναι όσο ακριβής τη γνωρίζετε: έτος, μήνας, ημέρα ή «στο παρελθόν».\n- Επισυνάψτε αρχεία (PDF ή εικόνες έως 20 MB) ή έγγραφα από το Κέντρο Εγγράφων.',
      'Σημειώστε μια καταχώριση «Μόνο για μένα» για να μείνει ιδιωτική: μόνο εσείς τη βλέπετε και δεν κοινοποιείται ούτε εξάγεται ποτέ, εκτός αν επιλέξετε να τη συμπεριλάβετε στο δικό σας PDF ή αρχείο FHIR.',
    ),
  },
  {
    slug: 'two-step-verification',
    feature: 'security',
    tags: ['two-step', '2fa', 'mfa', 'authenticator', 'verification code', 'security', 'επαλήθευση', 'δύο βημάτων', 'εφαρμογή επαλήθευσης', 'ασφάλεια'],
    title_en: 'Two-step verification',
    title_el: 'Επαλήθευση δύο βημάτων',
    body_en: p(
      'With two-step verification, signing in asks for a 6-digit code as well as your password, so a password alone cannot open your account.',
      '- Open Account Settings, Security tab, and add a second factor.\n- Choose where the codes come from: your e-mail, or an authenticator app such as Google Authenticator, Microsoft Authenticator or Authy (scan the QR code it shows).\n- Enter the code you receive to turn it on.',
      'You can remove a second factor on the same tab; we ask you to confirm it is you first. If you remove the only one, your password alone opens your account again.',
    ),
    body_el: p(
      'Με την επαλήθευση δύο βημάτων, η σύνδεση ζητά έναν 6ψήφιο κωδικό εκτός από τον κωδικό πρόσβασης, ώστε ο κωδικός πρόσβασης μόνος του να μην ανοίγει τον λογαριασμό σας.',
      '- Ανοίξτε τις Ρυθμίσεις λογαριασμού, καρτέλα Ασφάλεια, και προσθέστε δεύτερο παράγοντα.\n- Επιλέξτε από πού έρχονται οι κωδικοί: από το e-mail σας ή από μια εφαρμογή επαλήθευσης όπως το Google Authenticator, το Microsoft Authenticator ή το Authy (σαρώστε τον κωδικό QR που εμφανίζεται).\n- Εισαγάγετε τον κωδικό που λάβατε για να την ενεργοποιήσετε.',
      'Μπορείτε να αφαιρέσετε έναν δεύτερο παράγοντα από την ίδια καρτέλα· πρώτα σας ζητάμε να επιβεβαιώσετε ότι είστε εσείς. Αν αφαιρέσετε τον μοναδικό, ο κωδικός πρόσβασης μόνος του ανοίγει ξανά τον λογαριασμό σας.',
    ),
  },
  {
    slug: 'change-or-reset-password',
    feature: 'personal-info',
    tags: ['password', 'forgot', 'reset', 'change', 'sign in', 'κωδικός πρόσβασης', 'ξέχασα', 'επαναφορά', 'αλλαγή', 'σύνδεση'],
    title_en: 'Change my password, or I forgot it',
    title_el: 'Αλλαγή κωδικού πρόσβασης ή τον ξέχασα',
    body_en: p(
      'To change it: open Account Settings, Password tab, enter your current password and the new one twice. A password has at least 8 characters, with uppercase and lowercase letters, a number and a special character (# ? ! @ $ % ^ & * -). We e-mail you when it changes.',
      'If you forgot it: on the sign-in page choose “Forgot password?” and enter your e-mail address. If an account exists, you get a link to choose a new password. The link works once, for 60 minutes. Resetting signs you out everywhere.',
      'If you got an e-mail about a password change you did not make, reset your password at once and write to support.',
    ),
    body_el: p(
      'Για αλλαγή: ανοίξτε τις Ρυθμίσεις λογαριασμού, καρτέλα Κωδικός πρόσβασης, εισαγάγετε τον τρέχοντα κωδικό και δύο φορές τον νέο. Ο κωδικός έχει τουλάχιστον 8 χαρακτήρες, με κεφαλαία και πεζά γράμματα, έναν αριθμό και έναν ειδικό χαρακτήρα (# ? ! @ $ % ^ & * -). Σας στέλνουμε e-mail όταν αλλάξει.',
      'Αν τον ξεχάσατε: στη σελίδα σύνδεσης επιλέξτε «Ξεχάσατε τον κωδικό;» και εισαγάγετε το e-mail σας. Αν υπάρχει λογαριασμός, θα λάβετε σύνδεσμο για να ορίσετε νέο κωδικό. Ο σύνδεσμος ισχύει μία φορά, για 60 λεπτά. Η επαναφορά σάς αποσυνδέει από παντού.',
      'Αν λάβατε e-mail για αλλαγή κωδικού που δεν κάνατε εσείς, επαναφέρετε αμέσως τον κωδικό σας και γράψτε στην υποστήριξη.',
    ),
  },
  {
    slug: 'calendar-and-reminders',
    feature: 'calendar',
    tags: ['calendar', 'reminder', 'event', 'subscribe', 'appointments', 'ημερολόγιο', 'υπενθύμιση', 'γεγονός', 'συνδρομή', 'ραντεβού'],
    title_en: 'The calendar and reminders',
    title_el: 'Το ημερολόγιο και οι υπενθυμίσεις',
    body_en: p(
      'The Calendar shows your events, reminders and appointments by month, week or day. Select a day to add an event; events can repeat.',
      '- “Remind me” chooses when you are reminded: when it starts, or minutes, hours, days or weeks before.\n- The bell in the top bar (on phones, in the account menu) opens your reminders for the coming days.\n- Telehealth appointments you book appear here on their own.',
      'To see your calendar in Apple Calendar, Google Calendar or Outlook, create a subscription address under “Subscribe in your calendar app”. The address is private: anyone who has it can see your calendar, so make a new one if it was shared by mistake.',
    ),
    body_el: p(
      'Το Ημερολόγιο δείχνει τα γεγονότα, τις υπενθυμίσεις και τα ραντεβού σας ανά μήνα, εβδομάδα ή ημέρα. Επιλέξτε μια ημέρα για να προσθέσετε γεγονός· τα γεγονότα μπορούν να επαναλαμβάνονται.',
      '- Το «Υπενθύμιση» ορίζει πότε θα σας το θυμίσουμε: όταν αρχίζει ή λεπτά, ώρες, ημέρες ή εβδομάδες πριν.\n- Το καμπανάκι στην επάνω γραμμή (στα κινητά, στο μενού λογαριασμού) ανοίγει τις υπενθυμίσεις των επόμενων ημερών.\n- Τα ραντεβού τηλεϊατρικής που κλείνετε εμφανίζονται εδώ αυτόματα.',
      'Για να βλέπετε το ημερολόγιο στο Apple Calendar, στο Google Calendar ή στο Outlook, δημιουργήστε διεύθυνση συνδρομής στο «Συνδρομή από την εφαρμογή ημερολογίου». Η διεύθυνση είναι ιδιωτική: όποιος την έχει βλέπει το ημερολόγιό σας, οπότε φτιάξτε νέα αν κοινοποιήθηκε κατά λάθος.',
    ),
  },
  {
    slug: 'wellbeing-surveys',
    feature: 'surveys',
    tags: ['survey', 'questionnaire', 'phq-9', 'gad-7', 'mood', 'anxiety', 'ερωτηματολόγιο', 'διάθεση', 'άγχος', 'ευεξία'],
    title_en: 'The well-being surveys',
    title_el: 'Τα ερωτηματολόγια ευεξίας',
    body_en: p(
      'The surveys are short, widely used questionnaires about how you have felt over the last two weeks: the PHQ-2 and PHQ-9 about mood, the GAD-7 about anxiety, and your organisation’s general well-being questions.',
      'Your result shows your score and what it means in plain words. It is a screening, not a diagnosis: only a professional who knows you can make one. Next steps link to what your organisation offers, such as a telehealth visit or a chat.',
      'Your results are kept in your record, with their history, and are never shown to your organisation’s administrators. If any answer shows you may be in crisis, the result page first shows the crisis line and emergency number to call.',
    ),
    body_el: p(
      'Τα ερωτηματολόγια είναι σύντομα, ευρέως χρησιμοποιούμενα ερωτηματολόγια για το πώς νιώθατε τις τελευταίες δύο εβδομάδες: τα PHQ-2 και PHQ-9 για τη διάθεση, το GAD-7 για το άγχος και οι γενικές ερωτήσεις ευεξίας του οργανισμού σας.',
      'Το αποτέλεσμα δείχνει τη βαθμολογία σας και τι σημαίνει με απλά λόγια. Είναι έλεγχος διαλογής, όχι διάγνωση: διάγνωση μπορεί να κάνει μόνο ένας επαγγελματίας που σας γνωρίζει. Τα επόμενα βήματα οδηγούν σε ό,τι προσφέρει ο οργανισμός σας, όπως ραντεβού τηλεϊατρικής ή συνομιλία.',
      'Τα αποτελέσματα φυλάσσονται στον φάκελό σας, με το ιστορικό τους, και δεν εμφανίζονται ποτέ στους διαχειριστές του οργανισμού σας. Αν κάποια απάντηση δείχνει ότι ίσως βρίσκεστε σε κρίση, η σελίδα του αποτελέσματος δείχνει πρώτα τη γραμμή παρέμβασης και τον αριθμό έκτακτης ανάγκης.',
    ),
  },
  {
    slug: 'symptom-checker',
    feature: 'symptom-checker',
    tags: ['symptom', 'checker', 'triage', 'pain', 'fever', 'σύμπτωμα', 'έλεγχος συμπτωμάτων', 'πόνος', 'πυρετός'],
    title_en: 'The symptom checker',
    title_el: 'Ο έλεγχος συμπτωμάτων',
    body_en: p(
      'The symptom checker asks a few questions — who it is for, the main symptom, how long and how bad, and warning signs that belong to that symptom — and tells you where to get care: call the emergency number now, urgent care today, see a doctor soon, or look after yourself at home with when to seek help.',
      'Any warning sign leads to the most urgent advice. Its content is experimental and it does not replace a doctor. It is not for medical emergencies: if you think it is one, call your emergency number instead of using it.',
      'You can save the result to your record as a symptom.',
    ),
    body_el: p(
      'Ο έλεγχος συμπτωμάτων κάνει μερικές ερωτήσεις — για ποιον είναι, το κύριο σύμπτωμα, πόσο διαρκεί και πόσο έντονο είναι, και τα προειδοποιητικά σημάδια που αφορούν αυτό το σύμπτωμα — και σας λέει πού να απευθυνθείτε: καλέστε τώρα τον αριθμό έκτακτης ανάγκης, επείγουσα φροντίδα σήμερα, δείτε γιατρό σύντομα, ή φροντίστε τον εαυτό σας στο σπίτι, με οδηγίες για το πότε να ζητήσετε βοήθεια.',
      'Οποιοδήποτε προειδοποιητικό σημάδι οδηγεί στην πιο επείγουσα συμβουλή. Το περιεχόμενό του είναι πειραματικό και δεν αντικαθιστά τον γιατρό. Δεν είναι για επείγοντα: αν πιστεύετε ότι πρόκειται για επείγον, καλέστε τον αριθμό έκτακτης ανάγκης αντί να το χρησιμοποιήσετε.',
      'Μπορείτε να αποθηκεύσετε το αποτέλεσμα στον φάκελό σας ως σύμπτωμα.',
    ),
  },
  {
    slug: 'privacy-who-can-see-my-data',
    feature: 'privacy',
    tags: ['privacy', 'data', 'who can see', 'administrator', 'audit', 'απόρρητο', 'δεδομένα', 'ποιος βλέπει', 'διαχειριστής'],
    title_en: 'Privacy: who can see my data',
    title_el: 'Απόρρητο: ποιος βλέπει τα στοιχεία μου',
    body_en: p(
      'Your health record is yours. You see all of it; your organisation’s administrators do not get your records by their role.',
      '- People you share with see only what you chose, until the share expires or you revoke it, and never your records marked “For my eyes only”.\n- Providers and peer coaches you chat with see the messages and files of that chat.\n- Every opening of a share is logged, and you can see who opened it and when.',
      'We never sell your information or use your health information for advertising. The Privacy Policy, linked at the bottom of every page, says in full what is collected and why. Always sign out on a shared device.',
    ),
    body_el: p(
      'Ο φάκελος υγείας σας είναι δικός σας. Εσείς τον βλέπετε ολόκληρο· οι διαχειριστές του οργανισμού σας δεν έχουν πρόσβαση στις καταχωρίσεις σας λόγω του ρόλου τους.',
      '- Όσοι λαμβάνουν μια κοινοποίηση βλέπουν μόνο ό,τι επιλέξατε, μέχρι να λήξει ή να την ανακαλέσετε, και ποτέ τις καταχωρίσεις «Μόνο για μένα».\n- Οι επαγγελματίες και οι σύμβουλοι με τους οποίους συνομιλείτε βλέπουν τα μηνύματα και τα αρχεία εκείνης της συνομιλίας.\n- Κάθε άνοιγμα μιας κοινοποίησης καταγράφεται και μπορείτε να δείτε ποιος την άνοιξε και πότε.',
      'Δεν πουλάμε ποτέ τα στοιχεία σας και δεν χρησιμοποιούμε τις πληροφορίες υγείας σας για διαφήμιση. Η Πολιτική Απορρήτου, στο κάτω μέρος κάθε σελίδας, εξηγεί αναλυτικά τι συλλέγεται και γιατί. Αποσυνδέεστε πάντα όταν χρησιμοποιείτε κοινόχρηστη συσκευή.',
    ),
  },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('help_articles')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hidden', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('feature', 'text')
    .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('title_en', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('title_el', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body_en', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body_el', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One article per slug for every organisation, and one per slug per organisation.
  await sql`create unique index help_articles_default_slug on help_articles (slug) where org_id is null`.execute(db);
  await sql`create unique index help_articles_org_slug on help_articles (org_id, slug) where org_id is not null`.execute(db);

  const seed = db as unknown as Kysely<SeedTables>;
  await seed
    .insertInto('help_articles')
    .values(DEFAULT_HELP_ARTICLES.map(({ tags, ...a }, i) => ({ ...a, org_id: null, position: (i + 1) * 10, tags: JSON.stringify(tags) })))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('help_articles').execute();
}
