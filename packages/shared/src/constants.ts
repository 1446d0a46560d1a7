/**
 * Business constants named by the specification (shared/spec). One place for both sides.
 */

/** Organisations */
export const DEFAULT_CLIENT_ID = 'healthbook';
export const DEFAULT_PRIMARY_COLOR = '#0476d9';
export const ORGANIZATION_NOT_FOUND = 'Organization not found';
/** A client id is a lower-case path segment: letters, digits, dash, underscore. */
export const CLIENT_ID_MAX_LENGTH = 64;
export const CLIENT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Languages */
export const SUPPORTED_LANGUAGES = ['en', 'el'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Footer and legal texts */
export const COPYRIGHT_YEAR = 2023;
export const TERMS_MINIMUM_AGE = 18;
export const TERMS_LIABILITY_CAP_USD = 100;
export const TERMS_CLAIMS_WINDOW_YEARS = 1;
export const TERMS_ARBITRATOR_APPOINTMENT_DAYS = 45;
export const TERMS_DATE = '2025-01-17';
export const PRIVACY_REVISED_DATE = '2025-01-17';
export const PRIVACY_CHILD_AGE = 13;

/** Sessions (account document, section 9) */
export const IDLE_TIMEOUT_MS = 540_000;
export const IDLE_ALERT_COUNTDOWN_S = 60;
export const CODE_ENTRY_LENGTH = 6;
export const PASSWORD_MIN_LENGTH = 8;

/** Loading (hub document, section 9) */
export const LOADER_DELAY_MS = 400;
export const LAZY_PAGE_TIMEOUT_MS = 10_000;
export const SCROLL_TO_TOP_THRESHOLD_PX = 500;
export const SCROLL_TO_TOP_DELAY_MS = 190;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** Dialogs and layout */
export const INFO_DIALOG_WIDTH = 300;
export const PRIVACY_DIALOG_MAX_WIDTH = 1300;
export const RECORD_DATE_MIN = '1910-01-01';

/** Server limits */
export const JSON_BODY_LIMIT_BYTES = 1_048_576;
/** The largest id PostgreSQL's `integer` holds: larger ones are refused before any query. */
export const MAX_ID = 2_147_483_647;
/** An error answer names at most this many fields (and messages per field); the rest are summed up. */
export const MAX_ERROR_FIELDS = 50;
export const MAX_ERROR_MESSAGES_PER_FIELD = 5;

/** The refresh call and the credentials answer the request layer must never retry. */
export const REFRESH_PATH = '/api/v1/refresh/';
export const INCORRECT_CREDENTIALS = 'Incorrect authentication credentials.';

/** Contact details named in the Privacy Policy and Terms. */
export const SUPPORT_EMAIL = 'privacy@healthbook.example';
export const POSTAL_ADDRESS = 'HealthBook, 1600 Broadway, Suite 1600, Denver, CO 80202, USA';

/** Accounts and access (account document; issue figures) */
export const PASSWORD_SPECIALS = '#?!@$%^&*-';
export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_S = 7 * 24 * 60 * 60;
export const LIMITED_TOKEN_TTL_S = 10 * 60;
export const EMAIL_CODE_TTL_S = 5 * 60;
export const MFA_MAX_ATTEMPTS = 5;
export const TOTP_STEP_S = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;
export const INVITATION_TTL_DAYS = 30;
export const RESET_TOKEN_TTL_S = 60 * 60;
/** A set-password link (an account made by an operator or administrator, with no password yet). */
export const ACCOUNT_SETUP_TOKEN_TTL_S = 24 * 60 * 60;
export const CONFIRM_TOKEN_TTL_S = 7 * 24 * 60 * 60;
export const LOGIN_FAILURES_MAX = 5;
export const LOGIN_LOCKOUT_S = 15 * 60;
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const GENDER_KEYS = ['male', 'female', 'other', 'undisclosed'] as const;
export type GenderKey = (typeof GENDER_KEYS)[number];
/**
 * Roles: `professional` is the specification's (a user whose roles include it is a
 * professional); `provider` sees patients by appointment (telehealth) and `coach` does peer
 * coaching; both are professionals.
 */
export const USER_ROLES = ['patient', 'professional', 'provider', 'coach', 'org_admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/**
 * The header a client sends to act on another patient's record it was let into (care network,
 * family members): every call then acts on that patient, as if it named `?patient=`.
 */
export const PATIENT_HEADER = 'X-Patient-Id';

/**
 * Shares a patient may create (or send again to a new address) per hour and per day, whoever
 * acts for them: each may e-mail someone outside the organisation, from its address.
 */
export const SHARES_PER_HOUR_MAX = 10;
export const SHARES_PER_DAY_MAX = 30;

/**
 * Heavy requests (issue 24, §3): what grows with a patient's data is capped, and a request over
 * a cap is a 4xx that names it.
 */
/** Health records one patient may hold (typed in or imported). */
export const RECORDS_MAX_PER_PATIENT = 20_000;
/** Calendar events one patient may hold, and of them recurring series. */
export const CALENDAR_EVENTS_MAX_PER_PATIENT = 5_000;
export const CALENDAR_SERIES_MAX_PER_PATIENT = 200;
/** Event occurrences one calendar window may answer (ask for a shorter window beyond). */
export const CALENDAR_WINDOW_MAX_OCCURRENCES = 10_000;
/** Resources (entries) one FHIR import may hold. */
export const FHIR_IMPORT_MAX_RESOURCES = 5_000;
/** An Apple Health export (export.zip) the patient uploads: at most this many bytes (it is read as it streams to disk). */
export const APPLE_HEALTH_MAX_BYTES = 2 * 1024 ** 3;
/** Measurements one Apple Health import keeps (thinned or not); an export with more must be thinned to one a day. */
export const APPLE_HEALTH_MAX_MEASUREMENTS = 20_000;
/** How deeply a FHIR import's JSON may nest (R4 resources nest a few levels; 64 is ample). */
export const FHIR_MAX_DEPTH = 64;
/** A PDF refused because one of the same patient is being made (429), or the server makes many (503): try again after this. */
export const PDF_RETRY_AFTER_S = 10;
