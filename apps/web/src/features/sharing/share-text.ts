import type { TFunction } from 'i18next';
import type { Share, ShareAccess } from '@healthbook/shared/contracts/sharing';
import type { ShareStatus } from '@healthbook/shared/sharing';

/** The namespaces of the sharing pages: their own texts, the records' category names, the rules' messages. */
export const SHARING_NAMESPACES = ['sharing', 'records', 'validation', 'healthRecords'] as const;

/** The colour of a share's status chip (filled: its text reads at AA in the theme). */
export const STATUS_COLORS: Record<ShareStatus, 'success' | 'default' | 'error' | 'warning'> = {
  active: 'success',
  expired: 'default',
  revoked: 'error',
  locked: 'warning',
};

/** A share can still be opened, or opened again with a new link or passcode. */
export const isLive = (share: Pick<Share, 'status'>) => share.status === 'active' || share.status === 'locked';

/** The category's name, one or many (the shared records catalog). */
export const categoryLabel = (t: TFunction, key: string, plural = true) => t(`records:categories.${key}.${plural ? 'other' : 'one'}`);

/** What a share holds, in a line: its categories by name and how many single records, or how many documents. */
export function shareWhat(t: TFunction, share: Pick<Share, 'kind' | 'categories' | 'records' | 'documents'>): string {
  if (share.kind === 'documents') return t('sharing:what.documents', { count: share.documents.length });
  const parts = share.categories.map((c) => categoryLabel(t, c));
  if (share.records.length) parts.push(t('sharing:what.records', { count: share.records.length }));
  return parts.length ? parts.join(', ') : t('sharing:what.nothing');
}

/** What an opening showed, in a line: the categories, how many records and documents. */
export function accessShown(t: TFunction, shown: ShareAccess['shown']): string {
  const parts = shown.categories.map((c) => categoryLabel(t, c));
  if (shown.records) parts.push(t('sharing:what.records', { count: shown.records }));
  if (shown.documents) parts.push(t('sharing:what.documents', { count: shown.documents }));
  return parts.length ? parts.join(', ') : t('sharing:what.nothingShown');
}

/** The browser and system a user agent names ("Firefox", "Android"), each null when it names none known. */
export function browserOf(userAgent: string | null | undefined): { browser: string | null; system: string | null } {
  const ua = userAgent ?? '';
  const browser = /\bEdg(e|A|iOS)?\//.test(ua)
    ? 'Edge'
    : /\bOPR\/|\bOpera\b/.test(ua)
      ? 'Opera'
      : /\bSamsungBrowser\//.test(ua)
        ? 'Samsung Internet'
        : /\bFirefox\/|\bFxiOS\//.test(ua)
          ? 'Firefox'
          : /\bChrom(e|ium)\/|\bCriOS\/|\bHeadlessChrome\//.test(ua)
            ? 'Chrome'
            : /\bSafari\//.test(ua) && /\bVersion\//.test(ua)
              ? 'Safari'
              : null;
  const system = /\bWindows\b/.test(ua)
    ? 'Windows'
    : /\biPhone|\biPad|\biPod/.test(ua)
      ? 'iOS'
      : /\bAndroid\b/.test(ua)
        ? 'Android'
        : /\bCrOS\b/.test(ua)
          ? 'ChromeOS'
          : /\bMac OS X\b|\bMacintosh\b/.test(ua)
            ? 'macOS'
            : /\bLinux\b/.test(ua)
              ? 'Linux'
              : null;
  return { browser, system };
}

/** The browser of an opening for people ("Chrome on Android"); the user agent itself, shortened, when it names no known one. */
export function browserText(t: TFunction, userAgent: string | null | undefined): string {
  if (!userAgent) return t('sharing:access.unknownBrowser');
  const { browser, system } = browserOf(userAgent);
  if (browser && system) return t('sharing:access.browserOn', { browser, system });
  if (browser || system) return (browser ?? system)!;
  return userAgent.length > 40 ? `${userAgent.slice(0, 39)}…` : userAgent;
}

/** A moment in the reader's language and time zone: "24 Nov 2026, 09:30". */
export const dateTimeFormat = (locale: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
