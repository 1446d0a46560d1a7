/**
 * The help area's plain data (no zod: the web imports it): what a message to support may be
 * about, and the sizes of its fields.
 */

export const HELP_CONTACT_CATEGORIES = ['account', 'records', 'sharing', 'appointments', 'chat', 'technical', 'other'] as const;
export type HelpContactCategory = (typeof HELP_CONTACT_CATEGORIES)[number];

export const HELP_SUBJECT_MAX = 150;
export const HELP_MESSAGE_MAX = 5000;
export const HELP_SEARCH_MAX = 200;
/** An article's address: lower-case words joined by dashes. */
export const HELP_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const HELP_SLUG_MAX = 80;
