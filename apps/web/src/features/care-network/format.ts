/** A day in the reader's language ("12 Mar 2026"). */
export function formatDay(iso: string, language: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', year: 'numeric' }).format(date);
}

/** A moment in the reader's language, to the minute. */
export function formatMoment(iso: string, language: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

const VERBS = ['read', 'create', 'update', 'delete'] as const;

/**
 * An audit action in words: its own sentence when the catalog has one (log.actions.*), else
 * "<verb>: <thing>" from its parts (calendar_event_update → Changed: calendar), else as it is.
 */
export function actionText(t: (key: string, options?: Record<string, unknown>) => string, exists: (key: string) => boolean, action: string): string {
  if (exists(`log.actions.${action}`)) return t(`log.actions.${action}`);
  const parts = action.split('_');
  const verb = VERBS.find((v) => v === parts.at(-1));
  const thing = parts[0];
  if (verb && thing && exists(`log.things.${thing}`)) return t('log.composed', { verb: t(`log.verbs.${verb}`), thing: t(`log.things.${thing}`) });
  return action.replace(/_/g, ' ');
}
