import { formatMoment as formatZonedMoment } from '@healthbook/shared/moments';
import { userTimeZone } from '../../lib/zoned-time';

/** Dates of the recipient's pages, in the reader's language (day first in English, as the records are shown). */
const localeOf = (language: string) => (language === 'en' ? 'en-GB' : language);

/** A moment in the reader's zone, named: "12 May 2026 at 14:00 (Eastern European Time)" (as the PDF and the e-mails write it). */
export function formatMoment(iso: string, language: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return formatZonedMoment(at, language === 'el' ? 'el' : 'en', userTimeZone());
}

/** A size for people: 512 B, 14 KB, 3.2 MB. */
export function formatSize(bytes: number, language: string): string {
  const format = (n: number, digits: number) => new Intl.NumberFormat(localeOf(language), { maximumFractionDigits: digits }).format(n);
  if (bytes < 1024) return `${format(bytes, 0)} B`;
  if (bytes < 1024 * 1024) return `${format(bytes / 1024, 0)} KB`;
  return `${format(bytes / (1024 * 1024), 1)} MB`;
}
