import { DEFAULT_CLIENT_ID } from '@healthbook/shared/constants';

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
  codeRetrieval: (clientId: string = DEFAULT_CLIENT_ID) => `/${clientId}/code-retrieval`,
  invitePatient: (clientId: string) => `/${clientId}/addUser/home`,
  // The hub (app/shell, features/help, features/operations, features/admin)
  help: (clientId: string) => `/${clientId}/healthhelp`,
  /** A catalogue feature's page (its feature_route may carry a query, e.g. settings/profile?tabId=3). */
  feature: (clientId: string, route: string) => `/${clientId}/${route}`,
  operations: (clientId: string) => `/${clientId}/operations`,
  /** The general survey questionnaire (the surveys feature). */
  surveyQuestionnaire: (clientId: string) => `/${clientId}/mental-health-survey/general`,
  featureSettings: (clientId: string) => `/${clientId}/admin/features`,
  // Health records and the Document Center (features/health-records, features/documents)
  healthRecords: (clientId: string) => `/${clientId}/health-record`,
  recordList: (clientId: string, category: string) => `/${clientId}/health-record/${category}`,
  recordNew: (clientId: string, category: string) => `/${clientId}/health-record/${category}/new`,
  recordDetail: (clientId: string, category: string, id: number) => `/${clientId}/health-record/${category}/${id}`,
  recordEdit: (clientId: string, category: string, id: number) => `/${clientId}/health-record/${category}/${id}/edit`,
  documents: (clientId: string) => `/${clientId}/health-vault`,
  // The calendar and appointments (features/calendar)
  /** The calendar, optionally at a day (YYYY-MM-DD) and in a view. */
  calendar: (clientId: string, at?: { date?: string; view?: 'month' | 'week' | 'day' }) => {
    const query = new URLSearchParams({ ...(at?.date ? { date: at.date } : {}), ...(at?.view ? { view: at.view } : {}) }).toString();
    return `/${clientId}/calendar${query ? `?${query}` : ''}`;
  },
  calendarEvent: (clientId: string, eventId: number) => `/${clientId}/calendar/${eventId}`,
  calendarEventEdit: (clientId: string, eventId: number) => `/${clientId}/calendar/${eventId}/edit`,
  /** An appointment (eventId: its availability_det_id). */
  eventDetails: (clientId: string, eventId: number) => `/${clientId}/event-details?eventId=${eventId}`,
  cancelConfirmation: (clientId: string, eventId: number) => `/${clientId}/cancel-confirmation?eventId=${eventId}`,
  telehealth: (clientId: string) => `/${clientId}/health-help/telehealth`,
} as const;
