import { DEFAULT_CLIENT_ID } from '@healthbook/shared/constants';
import { SHARE_ROUTES, type ShareKind, type ShareMethod } from '@healthbook/shared/sharing';

/**
 * The query parameters of the telehealth pages, named as the specification names them:
 * selectedProvider (the speciality searched for), selectedDate (YYYY-MM-DD),
 * selectedProviderDetailsId (a provider), loadDetails (open that provider's details); slot (an
 * availability_det_id) on the confirmation page.
 */
export interface TelehealthQuery {
  selectedProvider?: string | undefined;
  selectedDate?: string | undefined;
  selectedProviderDetailsId?: number | undefined;
  loadDetails?: boolean | undefined;
  slot?: number | undefined;
}

/** What the new-share page starts with chosen (other pages link there: a category, a record of it, a document). */
export interface ShareNewQuery {
  /** 'documents': documents rather than health records. */
  kind?: 'documents' | undefined;
  category?: string | undefined;
  record?: number | undefined;
  document?: number | undefined;
}

/** A path with the parameters that have a value. */
const withQuery = (path: string, params: object) => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params) as Array<[string, unknown]>) if (value !== undefined && value !== '' && value !== false) query.set(key, String(value));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
};

/** Every link of the app, in one typed place. */
export const paths = {
  root: () => '/',
  login: (clientId: string = DEFAULT_CLIENT_ID) => `/${clientId}/login`,
  notFound: (clientId: string = DEFAULT_CLIENT_ID) => `/${clientId}/404`,
  about: (clientId: string) => `/${clientId}/about`,
  privacy: (clientId: string) => `/${clientId}/privacy`,
  terms: (clientId: string) => `/${clientId}/terms`,
  // Session and account (features/session, features/account)
  loginFrom: (clientId: string, redirectFrom: string | null | undefined) =>
    `/${clientId}/login${redirectFrom ? `?redirectFrom=${encodeURIComponent(redirectFrom)}` : ''}`,
  verify: (clientId: string, redirectFrom?: string | null) =>
    `/${clientId}/verify${redirectFrom ? `?redirectFrom=${encodeURIComponent(redirectFrom)}` : ''}`,
  logout: (clientId: string) => `/${clientId}/safeHavenLogout`,
  dashboard: (clientId: string = DEFAULT_CLIENT_ID) => `/${clientId}/dashboard`,
  profile: (clientId: string, tabId?: number) => `/${clientId}/settings/profile${tabId ? `?tabId=${tabId}` : ''}`,
  mfaRegister: (clientId: string) => `/${clientId}/2fa/register`,
  qrGoogle: (clientId: string, uuid: string, value: string) =>
    `/${clientId}/2fa/qrgoogle?uuid=${encodeURIComponent(uuid)}&value=${encodeURIComponent(value)}`,
  mfaSuccess: (clientId: string) => `/${clientId}/register/success`,
  // Sign-up, recovery and invitations (features/signup, features/recovery, features/admin)
  accessCode: (clientId: string = DEFAULT_CLIENT_ID) => `/${clientId}/access-code`,
  signup: (clientId: string) => `/${clientId}/signup`,
  emailConfirm: (clientId: string, uid: string, token: string) =>
    `/${clientId}/email/confirm/${encodeURIComponent(uid)}/${encodeURIComponent(token)}`,
  /** The link of the e-mail-change mail (public: it works without a sign-in). */
  emailChange: (clientId: string, uid: string, token: string) =>
    `/${clientId}/email/change/${encodeURIComponent(uid)}/${encodeURIComponent(token)}`,
  forgotPassword: (clientId: string) => `/${clientId}/forgotpassword`,
  resetPassword: (clientId: string, uid?: string, token?: string) =>
    `/${clientId}/password/reset${uid ? `/${encodeURIComponent(uid)}${token ? `/${encodeURIComponent(token)}` : ''}` : ''}`,
  /** The link of the set-password e-mail (an account made by an operator or administrator). */
  setPassword: (clientId: string, uid: string, token: string) => `/${clientId}/password/set/${encodeURIComponent(uid)}/${encodeURIComponent(token)}`,
  codeRetrieval: (clientId: string = DEFAULT_CLIENT_ID) => `/${clientId}/code-retrieval`,
  /** The administrator's home: the people of the organisation. */
  adminHome: (clientId: string) => `/${clientId}/addUser/home`,
  invitePatient: (clientId: string) => `/${clientId}/addUser/invite`,
  patientImport: (clientId: string) => `/${clientId}/addUser/import`,
  // The hub (app/shell, features/help, features/operations, features/admin)
  help: (clientId: string) => `/${clientId}/healthhelp`,
  /** One help article (features/help). */
  helpArticle: (clientId: string, slug: string) => `/${clientId}/healthhelp/articles/${encodeURIComponent(slug)}`,
  /** The help page's contact form. */
  helpContact: (clientId: string) => `/${clientId}/healthhelp#contact`,
  /** A catalogue feature's page (its feature_route may carry a query, e.g. settings/profile?tabId=3). */
  feature: (clientId: string, route: string) => `/${clientId}/${route}`,
  operations: (clientId: string) => `/${clientId}/operations`,
  /** The survey questionnaire: the surveys' hub (features/surveys). */
  surveyQuestionnaire: (clientId: string) => `/${clientId}/mental-health-survey`,
  featureSettings: (clientId: string, organizationId?: number) => `/${clientId}/admin/features${organizationId ? `?organization=${organizationId}` : ''}`,
  /** The organisations (super admins): the list, a new one, one of them (features/admin). */
  organizations: (clientId: string) => `/${clientId}/admin/organizations`,
  organizationNew: (clientId: string) => `/${clientId}/admin/organizations/new`,
  organizationEdit: (clientId: string, id: number) => `/${clientId}/admin/organizations/${id}`,
  /** The editors of the organisation's help articles and survey sets (features/admin). */
  helpArticlesEditor: (clientId: string) => `/${clientId}/admin/help-articles`,
  surveysEditor: (clientId: string) => `/${clientId}/admin/surveys`,
  /** The page a deactivated organisation's addresses show (features/errors). */
  organizationDeactivated: (clientId: string) => `/${clientId}/deactivated`,
  /** The organisation's pending account closings (features/admin). */
  accountClosings: (clientId: string) => `/${clientId}/admin/account-closings`,
  /** The organisation's SMART on FHIR sources of records (features/admin). */
  recordSources: (clientId: string) => `/${clientId}/admin/record-sources`,
  // Health records and the Document Center (features/health-records, features/documents)
  healthRecords: (clientId: string) => `/${clientId}/health-record`,
  recordList: (clientId: string, category: string) => `/${clientId}/health-record/${category}`,
  recordNew: (clientId: string, category: string) => `/${clientId}/health-record/${category}/new`,
  recordDetail: (clientId: string, category: string, id: number) => `/${clientId}/health-record/${category}/${id}`,
  recordEdit: (clientId: string, category: string, id: number) => `/${clientId}/health-record/${category}/${id}/edit`,
  /** The results of one lab test over time (features/health-records, lab-trend-page). */
  labTrend: (clientId: string, test: string) => `/${clientId}/health-record/lab/trend?test=${encodeURIComponent(test)}`,
  /** FHIR R4 export and import of the record (features/record-transfer). */
  recordTransfer: (clientId: string) => `/${clientId}/health-record/fhir`,
  /** The providers the patient connected (SMART on FHIR), and the page a provider sends the browser back to (features/health-records). */
  sourceConnections: (clientId: string) => `/${clientId}/health-record/connections`,
  /** The same address as the shared contracts' sourceCallbackPath (not imported: zod stays out of the first bundle). */
  sourceCallback: (clientId: string) => `/${clientId}/health-record/connections/callback`,
  documents: (clientId: string) => `/${clientId}/health-vault`,
  /** Linked accounts in other organisations (features/connection-hub). */
  connectionHub: (clientId: string) => `/${clientId}/connection-hub`,
  /** The family members the user manages: records of people without an account (features/family-members). */
  familyMembers: (clientId: string) => `/${clientId}/family-members`,
  /** The insurance cards (features/insurance). */
  insurance: (clientId: string) => `/${clientId}/insurance`,
  /** The symptom checker (features/symptom-checker; also at health-check and isabel-symptom-checker). */
  symptomChecker: (clientId: string) => `/${clientId}/symptom-checker`,
  // Telehealth (features/telehealth) and the provider console (features/provider-console)
  telehealth: (clientId: string) => `/${clientId}/health-help/telehealth`,
  providerList: (clientId: string, query: TelehealthQuery = {}) => withQuery(`/${clientId}/telehealth/provider-list`, query),
  providerDetails: (clientId: string, query: TelehealthQuery = {}) => withQuery(`/${clientId}/provider-details`, query),
  confirmAppointment: (clientId: string, query: TelehealthQuery) => withQuery(`/${clientId}/confirm-appointment`, query),
  appointmentScheduled: (clientId: string, eventId: number) => withQuery(`/${clientId}/appointment-scheduled`, { eventId }),
  /** An event of the calendar (an appointment's event id is its availability_det_id). */
  eventDetails: (clientId: string, eventId: number) => withQuery(`/${clientId}/event-details`, { eventId }),
  /** A telehealth appointment's video visit (features/video-visit), by its availability_det_id. */
  videoVisit: (clientId: string, slot: number) => withQuery(`/${clientId}/video-visit`, { slot }),
  providerAvailability: (clientId: string) => `/${clientId}/provider/availability`,
  providerAppointments: (clientId: string) => `/${clientId}/provider/appointments`,
  providerProfile: (clientId: string) => `/${clientId}/provider/profile`,
  /** The chat console of providers and peer coaches (features/chat-console). */
  providerChat: (clientId: string) => `/${clientId}/provider/chat`,
  // The calendar and appointments (features/calendar)
  /** The calendar, optionally at a day (YYYY-MM-DD) and in a view. */
  calendar: (clientId: string, at?: { date?: string; view?: 'month' | 'week' | 'day' }) => {
    const query = new URLSearchParams({ ...(at?.date ? { date: at.date } : {}), ...(at?.view ? { view: at.view } : {}) }).toString();
    return `/${clientId}/calendar${query ? `?${query}` : ''}`;
  },
  calendarEvent: (clientId: string, eventId: number) => `/${clientId}/calendar/${eventId}`,
  calendarEventEdit: (clientId: string, eventId: number) => `/${clientId}/calendar/${eventId}/edit`,
  cancelConfirmation: (clientId: string, eventId: number) => withQuery(`/${clientId}/cancel-confirmation`, { eventId }),
  // Live help: chatting with a peer coach or a provider (features/live-help)
  peerCoaching: (clientId: string) => `/${clientId}/peer-coaching`,
  /** The peer-coaching page while a chat is open: it opens (expands) the chat dialog. */
  chatInProgress: (clientId: string) => `/${clientId}/health-help/peer-coaching/chat-in-progress`,
  chatEnded: (clientId: string) => `/${clientId}/chat/end-secure-chat-screen`,
  chatHistory: (clientId: string) => `/${clientId}/peer-coaching/history`,
  chatTranscript: (clientId: string, conversationId: number) => `/${clientId}/peer-coaching/history/${conversationId}`,
  // The journal (features/journal)
  journal: (clientId: string) => `/${clientId}/journal`,
  // The care network (features/care-network)
  careNetwork: (clientId: string) => `/${clientId}/careclub`,
  /** Where an invitation's e-mail lands (its token in the fragment: #token=…, never sent to a server). */
  caringPersonInfo: (clientId: string) => `/${clientId}/caring-person-info`,
  // Mental-health and well-being surveys (features/surveys)
  surveys: (clientId: string) => `/${clientId}/mental-health-survey`,
  /** Taking a survey: its route (SURVEY_ROUTES: GAD-7's is phq-7). */
  survey: (clientId: string, route: string) => `/${clientId}/mental-health-survey/${route}`,
  /** A survey's result: one (id), or the latest of that survey. */
  surveyResult: (clientId: string, route: string, id?: number) => withQuery(`/${clientId}/health-action/result`, { action: route, id }),
  /** The assessments view of the record: history and a trend per survey. */
  assessments: (clientId: string) => `/${clientId}/health-record/assessments`,
  // The profile questionnaire (features/account)
  profileQuestionnaire: (clientId: string) => `/${clientId}/profile-questionnaire`,
  profileQuestionnaireThankYou: (clientId: string) => `/${clientId}/profile-questionnaire/thank-you`,
  // Sharing, the patient's side (features/sharing)
  sharing: (clientId: string) => `/${clientId}/sharing`,
  /** The new-share page, optionally with something chosen (?category=lab, ?record=12&category=lab, ?document=5). */
  shareNew: (clientId: string, query: ShareNewQuery = {}) => withQuery(`/${clientId}/sharing/new`, query),
  share: (clientId: string, id: number) => `/${clientId}/sharing/${id}`,
  // A share's recipient (features/share-recipient): public pages, no sign-in; the token is never in these.
  shareVerification: (clientId: string, kind: ShareKind, method: ShareMethod) =>
    `/${clientId}/${method === 'qr' ? SHARE_ROUTES.verifyQr : kind === 'documents' ? SHARE_ROUTES.verifyDocuments : SHARE_ROUTES.verifyRecords}`,
  sharedContent: (clientId: string, kind: ShareKind) => `/${clientId}/${kind === 'documents' ? SHARE_ROUTES.documents : SHARE_ROUTES.records}`,
  /** The revoked page: its own route for a share opened from a QR code. */
  shareRevoked: (clientId: string, method: ShareMethod) => `/${clientId}/${method === 'qr' ? SHARE_ROUTES.revokedQr : SHARE_ROUTES.revoked}`,
  shareExpired: (clientId: string) => `/${clientId}/${SHARE_ROUTES.expired}`,
} as const;
