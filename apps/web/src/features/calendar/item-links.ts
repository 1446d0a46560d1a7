import type { CalendarItem } from '@healthbook/shared/contracts/calendar';
import { paths } from '../../lib/paths';

/** Where an item opens: an event its page, an appointment its details (eventId = availability_det_id). */
export const itemPath = (clientId: string, item: Pick<CalendarItem, 'kind' | 'event_id'>): string =>
  item.kind === 'appointment' ? paths.eventDetails(clientId, item.event_id) : paths.calendarEvent(clientId, item.event_id);

/** An item may be edited when it is an event that does not repeat (the specification). */
export const canEdit = (item: Pick<CalendarItem, 'kind' | 'is_recurring'>): boolean => item.kind === 'event' && !item.is_recurring;
