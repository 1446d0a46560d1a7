import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CalendarItem } from '@healthbook/shared/contracts/calendar';
import { json, mockFetch, renderPage, type FetchCall } from '../../../test/render-page';
import RemindersPanel from './reminders-panel';

const base = { description: null, all_day: false, is_recurring: false, recurrence: null, reminder_minutes: null } as const;
const ITEMS: CalendarItem[] = [
  {
    ...base,
    kind: 'event',
    event_id: 11,
    title: 'Physio exercises',
    description: 'Knee, 20 minutes',
    color: 'green',
    type: 'Excercise',
    start_time: '2026-11-25T17:00:00Z',
    end_time: '2026-11-25T17:30:00Z',
    is_recurring: true,
    recurrence: 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10',
  },
  {
    ...base,
    kind: 'appointment',
    event_id: 77,
    title: 'Appointment',
    color: 'blue',
    type: 'Appointment',
    start_time: '2026-11-24T11:00:00Z',
    end_time: '2026-11-24T11:30:00Z',
    provider_name: 'Dr. Eleni Kosta',
    provider_id: 5,
    availability_det_id: 77,
    appointment_date: '2026-11-24',
    appointment_time: '11:00 AM',
  },
  { ...base, kind: 'event', event_id: 12, title: 'Bloods', color: 'deep-purple', type: 'Exam', start_time: '2026-11-24T09:30:00Z', end_time: '2026-11-24T10:00:00Z' },
];

function answer(call: FetchCall) {
  if (call.url.startsWith('/api/v1/calendar/events/')) return json(200, ITEMS);
  if (call.url === '/api/v1/provider/cancel_appointment/') return json(200, { availability_det_id: 77, status: 'cancelled' });
  if (call.url === '/api/v1/me/') return json(401, { detail: 'no' });
  return json(404, {});
}

const open = () => renderPage({ path: 'dashboard', element: <RemindersPanel clientId="healthbook" onNavigate={() => undefined} />, at: '/healthbook/dashboard' });

describe('the Reminders drawer', () => {
  beforeEach(() => {
    process.env.TZ = 'UTC';
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T08:00:00Z'));
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('fetches the selected day plus 10 days and groups it by day, with time, provider and relative time', async () => {
    const calls = mockFetch(answer);
    await open();
    const today = await screen.findByRole('region', { name: /^Today/ });
    expect(calls[0]!.url).toBe('/api/v1/calendar/events/?start=2026-11-24&end=2026-12-04&tz=UTC');
    const todayItems = within(today).getAllByRole('listitem');
    expect(todayItems.map((li) => li.textContent)).toEqual([expect.stringContaining('Bloods'), expect.stringContaining('Dr. Eleni Kosta')]);
    expect(within(todayItems[1]!).getByText('in 3 hours')).toBeTruthy();
    expect(within(todayItems[1]!).getByText('11:00 AM')).toBeTruthy();
    const tomorrow = screen.getByRole('region', { name: /^Tomorrow/ });
    expect(within(tomorrow).getByText('Physio exercises')).toBeTruthy();
  });

  it('expands an item: type, title, start, notes; no edit for a repeating event', async () => {
    mockFetch(answer);
    await open();
    const details = await screen.findByRole('button', { name: 'Details of Physio exercises' });
    expect(details.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(details);
    expect(details.getAttribute('aria-expanded')).toBe('true');
    const panel = document.getElementById(details.getAttribute('aria-controls')!)!;
    expect(within(panel).getByText('Exercise')).toBeTruthy();
    expect(within(panel).getByText('Knee, 20 minutes')).toBeTruthy();
    expect(within(panel).getByRole('link', { name: 'View' }).getAttribute('href')).toBe('/healthbook/calendar/11');
    expect(within(panel).queryByRole('link', { name: 'Edit' })).toBeNull();
    fireEvent.click(within(panel).getByRole('button', { name: 'Close details' }));
    await waitFor(() => expect(details.getAttribute('aria-expanded')).toBe('false'));

    const bloods = screen.getByRole('button', { name: 'Details of Bloods' });
    fireEvent.click(bloods);
    const bloodsPanel = document.getElementById(bloods.getAttribute('aria-controls')!)!;
    expect(within(bloodsPanel).getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/healthbook/calendar/12/edit');
  });

  it('cancels an appointment after "Are you sure you want to cancel this meeting?"', async () => {
    const calls = mockFetch(answer);
    await open();
    const details = await screen.findByRole('button', { name: 'Details of Dr. Eleni Kosta' });
    fireEvent.click(details);
    const panel = document.getElementById(details.getAttribute('aria-controls')!)!;
    expect(within(panel).getByRole('link', { name: 'View' }).getAttribute('href')).toBe('/healthbook/event-details?eventId=77');
    fireEvent.click(within(panel).getByRole('button', { name: 'Cancel appointment' }));
    expect(within(panel).getByText('Are you sure you want to cancel this meeting?')).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'No, keep it' }));
    expect(within(panel).queryByText('Are you sure you want to cancel this meeting?')).toBeNull();
    fireEvent.click(within(panel).getByRole('button', { name: 'Cancel appointment' }));
    fireEvent.click(within(panel).getByRole('button', { name: 'Yes, cancel it' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/v1/provider/cancel_appointment/')).toBe(true));
    expect(calls.find((c) => c.url === '/api/v1/provider/cancel_appointment/')!.body).toEqual({
      provider_id: 5,
      availability_det_id: 77,
      cancellation_notes: null,
      appointment_date: '2026-11-24',
      is_cancel_from_provider: false,
    });
  });

  it('moves by day, and says so when nothing is found', async () => {
    const calls = mockFetch((call) => (call.url.includes('start=2026-11-25') ? json(200, []) : answer(call)));
    await open();
    await screen.findByRole('region', { name: /^Today/ });
    fireEvent.click(screen.getByRole('button', { name: 'Next day' }));
    expect(await screen.findByText('No events found')).toBeTruthy();
    expect(calls.at(-1)!.url).toContain('start=2026-11-25&end=2026-12-05');
    fireEvent.click(screen.getByRole('button', { name: 'Today' }));
    expect(await screen.findByRole('region', { name: /^Today/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Open calendar/ }).getAttribute('href')).toBe('/healthbook/calendar?date=2026-11-24');
  });
});
