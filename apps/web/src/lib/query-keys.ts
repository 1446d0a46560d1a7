/**
 * Every query key of the app. Queries take their key from here and mutations invalidate by
 * it: a key starts with its family (`all`), so invalidating the family reaches every variant
 * (each language, each user). No key is written anywhere else.
 */
export const queryKeys = {
  organizations: {
    all: ['organizations'] as const,
    /** GET /api/v1/organization_detail_by_name/{clientId} */
    byName: (clientId: string) => [...queryKeys.organizations.all, 'by-name', clientId] as const,
    /** GET /api/v1/organization_detail/ */
    list: () => [...queryKeys.organizations.all, 'list'] as const,
    /** GET /api/v1/admin/organizations/ (super admins) */
    admin: () => [...queryKeys.organizations.all, 'admin'] as const,
    /** GET /api/v1/admin/organizations/{id}/ */
    adminOne: (id: number) => [...queryKeys.organizations.all, 'admin', id] as const,
  },
  users: {
    all: ['users'] as const,
    /** GET /api/v1/users/options/: the labels come in the reader's language. */
    options: (language: string) => [...queryKeys.users.all, 'options', language] as const,
    /** POST /api/v1/users/confirm_email/: run once per link. */
    emailConfirmation: (uid: string, token: string) => [...queryKeys.users.all, 'confirm-email', uid, token] as const,
    /** POST /api/v1/users/confirm_email_change/: run once per link. */
    emailChangeConfirmation: (uid: string, token: string) => [...queryKeys.users.all, 'confirm-email-change', uid, token] as const,
    /** POST /api/v1/account_setup/check/: whether a set-password link still works (changes nothing). */
    accountSetupLink: (uid: string, token: string) => [...queryKeys.users.all, 'account-setup-link', uid, token] as const,
  },
  accountClosing: {
    all: ['account-closing'] as const,
    /** GET /api/v1/me/closing/: what closing the account would take with it. */
    preview: () => [...queryKeys.accountClosing.all, 'preview'] as const,
    /** GET /api/v1/account_closings/?org=: an organisation's pending closings (administrators). */
    pending: (orgId: number) => [...queryKeys.accountClosing.all, 'pending', orgId] as const,
  },
  wizard: {
    all: ['wizard'] as const,
    /** GET /api/v1/wizard/: step titles come in the chosen language. */
    forLanguage: (language: string) => [...queryKeys.wizard.all, language] as const,
  },
  profileQuestions: {
    all: ['profile-questions'] as const,
    /** GET /api/v1/users/profile_questions/ (with the user's answers), in the chosen language. */
    forLanguage: (language: string) => [...queryKeys.profileQuestions.all, language] as const,
  },
  welcomeMessages: {
    all: ['welcome-messages'] as const,
    /** GET /api/v1/users/get_welcome_messages/{id}, in the chosen language. */
    forUser: (userId: number, language: string) => [...queryKeys.welcomeMessages.all, userId, language] as const,
  },
  features: {
    all: ['features'] as const,
    /** POST /api/v1/features/get-features/: the member's features; names come in the reader's language. */
    forOrganization: (organizationId: number, language: string) => [...queryKeys.features.all, 'member', organizationId, language] as const,
    /** GET /api/v1/features/?organization_id=: the administrators' view. */
    settings: (organizationId: number, language: string) => [...queryKeys.features.all, 'settings', organizationId, language] as const,
  },
  people: {
    all: ['people'] as const,
    /** GET /api/v1/admin/people/ with its parameters. */
    list: (params: { org?: number | undefined; search: string; kind: string; page: number; pageSize: number }, language: string) => [...queryKeys.people.all, 'list', params, language] as const,
    /** GET /api/v1/admin/patient-imports/{id}/ */
    patientImport: (id: number, params: { problems: boolean; page: number }) => [...queryKeys.people.all, 'import', id, params] as const,
  },
  operations: {
    all: ['operations'] as const,
    /** GET /api/v1/operationsdashboard/summary/ */
    summary: (organizationId: number, from: string, to: string, tz: string, language: string) =>
      [...queryKeys.operations.all, 'summary', organizationId, from, to, tz, language] as const,
  },
  records: {
    all: ['records'] as const,
    /** GET /api/v1/hr/summary/ */
    summary: (patient: number | null, language: string) => [...queryKeys.records.all, 'summary', patient, language] as const,
    /** GET /api/v1/hr/{category}/ with its parameters. */
    list: (category: string, params: Record<string, string | number | undefined>) => [...queryKeys.records.all, 'list', category, params] as const,
    /** GET /api/v1/hr/{category}/{id}/ */
    detail: (category: string, id: number) => [...queryKeys.records.all, 'detail', category, id] as const,
    /** GET /api/v1/hr/{category}/{id}/history/ (labels in the reader's language) */
    history: (category: string, id: number, language: string) => [...queryKeys.records.all, 'history', category, id, language] as const,
  },
  sources: {
    all: ['sources'] as const,
    /** GET /api/v1/admin/sources/?org_id=: an organisation's SMART on FHIR sources (administrators). */
    admin: (organizationId: number) => [...queryKeys.sources.all, 'admin', organizationId] as const,
    /** GET /api/v1/sources/: the providers the viewed patient may connect and their connections (problems in the reader's language). */
    patient: (language: string) => [...queryKeys.sources.all, 'patient', language] as const,
  },
  sourceCallback: {
    /** Apart from `sources`: invalidating the connections never sends a used state again. */
    all: ['source-callback'] as const,
    /** POST /api/v1/sources/callback/ for a callback's single-use state: sent once and its answer kept. */
    forState: (state: string) => [...queryKeys.sourceCallback.all, state] as const,
  },
  symptomChecker: {
    all: ['symptom-checker'] as const,
    /** GET /api/v1/symptom-checker/complaints/: names and questions in the reader's language. */
    complaints: (language: string) => [...queryKeys.symptomChecker.all, 'complaints', language] as const,
  },
  appleHealth: {
    all: ['apple-health'] as const,
    /** GET /api/v1/fhir/apple-health/{id}/: how far an import is, and what it found (an error in the reader's language). */
    detail: (id: number, language: string) => [...queryKeys.appleHealth.all, 'detail', id, language] as const,
  },
  documents: {
    all: ['documents'] as const,
    /** GET /api/v1/documents/ with its parameters. */
    list: (params: Record<string, string | undefined>) => [...queryKeys.documents.all, 'list', params] as const,
    /** GET /api/v1/documents/folders/ */
    folders: () => [...queryKeys.documents.all, 'folders'] as const,
    /** GET /api/v1/documents/{id}/file/ as a blob */
    file: (id: number) => [...queryKeys.documents.all, 'file', id] as const,
  },
  familyMembers: {
    all: ['family-members'] as const,
    /** GET /api/v1/family-members/: the signed-in user's own family members (whatever record is viewed). */
    list: () => [...queryKeys.familyMembers.all, 'list'] as const,
  },
  insurance: {
    all: ['insurance'] as const,
    /** GET /api/v1/insurance/ */
    list: () => [...queryKeys.insurance.all, 'list'] as const,
  },
  telehealth: {
    all: ['telehealth'] as const,
    /** GET /api/v1/provider/specialities/ */
    specialities: () => [...queryKeys.telehealth.all, 'specialities'] as const,
    /** GET /api/v1/provider/list/ with its parameters. */
    providers: (params: Record<string, string | undefined>) => [...queryKeys.telehealth.all, 'providers', params] as const,
    /** GET /api/v1/provider/{id}/ */
    provider: (id: number) => [...queryKeys.telehealth.all, 'provider', id] as const,
    /** GET /api/v1/provider/{id}/availability/ for a window of days in a zone. */
    availability: (id: number, start: string, end: string, tz: string) => [...queryKeys.telehealth.all, 'availability', id, start, end, tz] as const,
    /** GET /api/v1/appointments/{availability_det_id}/ (one key with the calendar's). */
    appointment: (eventId: number) => queryKeys.appointments.detail(eventId),
    /** GET /api/v1/appointments/ with its parameters (the patient's). */
    appointments: (params: Record<string, string | undefined>) => [...queryKeys.telehealth.all, 'appointments', params] as const,
  },
  providerConsole: {
    all: ['provider-console'] as const,
    /** GET /api/v1/provider/me/schedule/ */
    schedule: () => [...queryKeys.providerConsole.all, 'schedule'] as const,
    /** GET /api/v1/provider/me/profile/ */
    profile: () => [...queryKeys.providerConsole.all, 'profile'] as const,
    /** GET /api/v1/provider/me/appointments/ with its parameters. */
    appointments: (params: Record<string, string | undefined>) => [...queryKeys.providerConsole.all, 'appointments', params] as const,
  },
  chatConsole: {
    all: ['chat-console'] as const,
    /** GET /api/v1/chat/queue/ (kept current by the socket's `queue` events); the reasons come in the reader's language. */
    queue: (language: string) => [...queryKeys.chatConsole.all, 'queue', language] as const,
    /** GET /api/v1/chat/conversations/?patient=: the staff member's conversations (with one patient, or all). */
    conversations: (patient: number | null) => [...queryKeys.chatConsole.all, 'conversations', patient] as const,
    /** GET /api/v1/chat/conversations/{id}/ */
    transcript: (id: number) => [...queryKeys.chatConsole.all, 'transcript', id] as const,
  },
  calendar: {
    all: ['calendar'] as const,
    /** GET /api/v1/calendar/events/?start=&end=&tz= (days in the zone, end included) */
    items: (start: string, end: string, tz: string) => [...queryKeys.calendar.all, 'items', start, end, tz] as const,
    /** GET /api/v1/calendar/events/{event_id}/ */
    event: (id: number) => [...queryKeys.calendar.all, 'event', id] as const,
  },
  calendarFeed: {
    all: ['calendar-feed'] as const,
    /** GET /api/v1/calendar/feed/ (the address itself only in the answer that makes it) */
    status: () => [...queryKeys.calendarFeed.all, 'status'] as const,
  },
  appointments: {
    all: ['appointments'] as const,
    /** GET /api/v1/appointments/{availability_det_id}/ */
    detail: (availabilityDetId: number) => [...queryKeys.appointments.all, 'detail', availabilityDetId] as const,
    /** GET /api/v1/appointments/{availability_det_id}/visit/ (the video visit; read again with the appointment). */
    visit: (availabilityDetId: number) => [...queryKeys.appointments.all, 'detail', availabilityDetId, 'visit'] as const,
    /** GET /api/v1/appointments/{availability_det_id}/visit/note/ (the provider's note of the visit). */
    visitNote: (availabilityDetId: number) => [...queryKeys.appointments.all, 'detail', availabilityDetId, 'visit', 'note'] as const,
  },
  shares: {
    all: ['shares'] as const,
    /** GET /api/v1/sharing/: the patient's shares. */
    list: () => [...queryKeys.shares.all, 'list'] as const,
    /** GET /api/v1/sharing/{id}/ */
    detail: (id: number) => [...queryKeys.shares.all, 'detail', id] as const,
    /** GET /api/v1/sharing/{id}/accesses/: who opened it. */
    accesses: (id: number) => [...queryKeys.shares.all, 'accesses', id] as const,
  },
  help: {
    all: ['help'] as const,
    /** GET /api/v1/organizations/{id}/help/articles/ (editors; both languages) */
    editor: (organizationId: number) => [...queryKeys.help.all, 'editor', organizationId] as const,
    /** GET /api/v1/help/articles/?search=: titles in the reader's language. */
    articles: (search: string, language: string) => [...queryKeys.help.all, 'articles', search, language] as const,
    /** GET /api/v1/help/articles/{slug}/ */
    article: (slug: string, language: string) => [...queryKeys.help.all, 'article', slug, language] as const,
    /** GET /api/v1/help/assistant/?q= */
    assistant: (question: string, language: string) => [...queryKeys.help.all, 'assistant', question, language] as const,
  },
  chat: {
    all: ['chat'] as const,
    /** GET /api/v1/peercoaching/providertypereasons/: labels in the reader's language. */
    reasons: (language: string) => [...queryKeys.chat.all, 'reasons', language] as const,
    /** GET /api/v1/chat/conversations/: the patient's past and open chats. */
    conversations: () => [...queryKeys.chat.all, 'conversations'] as const,
    /** GET /api/v1/chat/conversations/{id}/: one chat's transcript. */
    conversation: (id: number) => [...queryKeys.chat.all, 'conversation', id] as const,
  },
  connectionHub: {
    all: ['connection-hub'] as const,
    /** GET /api/v1/connection-hub/links/: the linked accounts in other organisations. */
    links: () => [...queryKeys.connectionHub.all, 'links'] as const,
  },
  journal: {
    all: ['journal'] as const,
    /** GET /api/v1/journal/?search=&tag=&page=: a page of entries, newest first. */
    list: (params: { search: string; tag: string; page: number }) => [...queryKeys.journal.all, 'list', params] as const,
    /** GET /api/v1/journal/moods/: the mood of each entry, oldest first. */
    moods: () => [...queryKeys.journal.all, 'moods'] as const,
  },
  surveys: {
    all: ['surveys'] as const,
    /** GET /api/v1/organizations/{id}/surveys/{survey}/ (administrators; both languages) */
    editor: (organizationId: number, survey: string) => [...queryKeys.surveys.all, 'editor', organizationId, survey] as const,
    /** GET /api/v1/surveys/: every survey with the latest result, in the reader's language. */
    list: (language: string) => [...queryKeys.surveys.all, 'list', language] as const,
    /** GET /api/v1/surveys/{key}/: its questions, in the reader's language. */
    detail: (key: string, language: string) => [...queryKeys.surveys.all, 'detail', key, language] as const,
    /** GET /api/v1/surveys/responses/?survey=: the results, newest first (of one survey, or all). */
    results: (survey: string | null, language: string) => [...queryKeys.surveys.all, 'results', survey, language] as const,
    /** GET /api/v1/surveys/responses/{id}/ */
    result: (id: number, language: string) => [...queryKeys.surveys.all, 'result', id, language] as const,
  },
  patients: {
    all: ['patients'] as const,
    /** GET /api/v1/patients/: the signed-in user's own record and the records they were let into (not per viewed record). */
    list: () => [...queryKeys.patients.all, 'list'] as const,
  },
  careNetwork: {
    all: ['care-network'] as const,
    /** GET /api/v1/care-network/: the people in the signed-in user's own record. */
    members: () => [...queryKeys.careNetwork.all, 'members'] as const,
    /** GET /api/v1/care-network/caring-for/: the records the signed-in user was let into. */
    caringFor: () => [...queryKeys.careNetwork.all, 'caring-for'] as const,
    /** GET /api/v1/care-network/access-log/?page=: who saw my record (details in the reader's language). */
    accessLog: (page: number, language: string) => [...queryKeys.careNetwork.all, 'access-log', page, language] as const,
    /** POST /api/v1/care-network/invitations/preview/ for the invitation this tab holds (the token stays out of keys: `link` counts the links opened). */
    invitation: (link: number, language: string) => [...queryKeys.careNetwork.all, 'invitation', link, language] as const,
  },
  shareRecipient: {
    all: ['share-recipient'] as const,
    /** POST /api/v1/sharing/public/open/ for a share's uid (the token stays out of keys). */
    opening: (uid: string) => [...queryKeys.shareRecipient.all, 'opening', uid] as const,
    /** GET /api/v1/sharing/public/content/ (X-Share-Session), labels in the reader's language. */
    content: (uid: string, language: string) => [...queryKeys.shareRecipient.all, 'content', uid, language] as const,
  },
};
