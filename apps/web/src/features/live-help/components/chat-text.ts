import type { ChatStatus } from '@healthbook/shared/chat';

/** A chat's date and time, in the reader's language and zone. */
export const chatDateFormat = (language: string) => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });

/** The chip colour of a chat's status. */
export const CHAT_STATUS_COLORS: Record<ChatStatus, 'default' | 'info' | 'success'> = { queued: 'info', active: 'success', ended: 'default' };
