import { config } from 'zod/v4/core';

/**
 * zod's object schemas probe for `new Function` when they are made, to compile a faster parser;
 * the page's Content-Security-Policy forbids eval, so the probe is reported as a violation (a
 * console error, and Lighthouse's best practices). Without it zod parses as fast as a form needs.
 * Imported first by main.tsx: set before any schema is made.
 */
config({ jitless: true });
