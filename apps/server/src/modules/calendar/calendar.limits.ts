import { CALENDAR_EVENTS_MAX_PER_PATIENT, CALENDAR_SERIES_MAX_PER_PATIENT, CALENDAR_WINDOW_MAX_OCCURRENCES } from '@healthbook/shared';
import { HttpError } from '../../lib/http-errors';
import { sliceClock } from '../../lib/slices';
import type { CalendarRepository } from './calendar.repository';

/**
 * The calendar's caps (issue 24, §3), each a 400 that names it: events per patient, recurring
 * series per patient, and occurrences per window (a year of a thousand daily series is refused
 * after the first CALENDAR_WINDOW_MAX_OCCURRENCES, not answered with a hundred megabytes).
 * Two creates at the very same moment are counted one after the other (the repository holds the patient's count).
 */
export async function assertRoomForEvent(repo: CalendarRepository, recurring: boolean): Promise<void> {
  const { events, series } = await repo.counts();
  if (events >= CALENDAR_EVENTS_MAX_PER_PATIENT) throw new HttpError(400, 'errors:calendarEventsLimit', { max: CALENDAR_EVENTS_MAX_PER_PATIENT });
  if (recurring && series >= CALENDAR_SERIES_MAX_PER_PATIENT) throw new HttpError(400, 'errors:calendarSeriesLimit', { max: CALENDAR_SERIES_MAX_PER_PATIENT });
}

/** A window's expansion: `check(count)` after each event refuses past the cap, and yields the event loop between slices. */
export function windowBound() {
  const clock = sliceClock();
  return {
    async check(occurrences: number): Promise<void> {
      if (occurrences > CALENDAR_WINDOW_MAX_OCCURRENCES) throw new HttpError(400, 'errors:calendarWindowTooFull', { max: CALENDAR_WINDOW_MAX_OCCURRENCES });
      await clock.pause();
    },
  };
}
