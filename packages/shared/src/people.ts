/** The people of an organisation (the administrator's home): constants both sides use. */

/** The roles an administrator hands out (`professional` follows provider and coach by itself). */
export const ASSIGNABLE_ROLES = ['patient', 'provider', 'coach', 'org_admin'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];
/** The staff an administrator invites. */
export const STAFF_ROLES = ['org_admin', 'provider', 'coach'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const PERSON_STATUSES = ['invited', 'active', 'locked', 'mfa', 'deactivated'] as const;
export type PersonStatus = (typeof PERSON_STATUSES)[number];

/** The bulk import's CSV columns, in this order (a header row with these names is expected). */
export const PATIENT_IMPORT_COLUMNS = ['first_name', 'last_name', 'dob', 'gender', 'email', 'language'] as const;
export const PATIENT_IMPORT_MAX_ROWS = 20_000;
export const PATIENT_IMPORT_MAX_BYTES = 4 * 1024 * 1024;
export const RESET_MFA_REASON_MAX = 500;

export const PATIENT_IMPORT_PROBLEMS = ['missing', 'bad_date', 'future_date', 'bad_email', 'unknown_gender', 'unknown_language', 'duplicate_in_file', 'already_in_organization', 'bad_name'] as const;
export type PatientImportProblemCode = (typeof PATIENT_IMPORT_PROBLEMS)[number];
