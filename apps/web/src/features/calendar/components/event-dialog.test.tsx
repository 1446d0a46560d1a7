import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, mockFetch, renderPage } from '../../../test/render-page';
import { newEventValues } from '../event-values';
import { EventDialog } from './event-dialog';

const TZ = 'Europe/Athens';

/** Picks an option of an MUI select by its label. */
function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: option }));
}

async function open(onSaved = vi.fn()) {
  // 2026-11-24 is a Tuesday.
  await renderPage({
    path: 'calendar',
    element: <EventDialog initial={newEventValues('2026-11-24', '18:00')} tz={TZ} onClose={() => undefined} onSaved={onSaved} />,
    at: '/healthbook/calendar',
  });
  await screen.findByRole('dialog', { name: 'New event' });
  return onSaved;
}

describe('the new event dialog', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('makes a weekly reminder on Monday and Wednesday, ten times, with a reminder', { timeout: 20_000 }, async () => {
    const calls = mockFetch((call) => json(201, { event_id: 5, ...(call.body as object) }));
    const onSaved = await open();
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Physio exercises' } });
    choose('Type', 'Exercise');
    choose('Repeat', 'Weekly');
    const days = screen.getByRole('group', { name: 'On these days' });
    // The start's weekday (Tuesday) is chosen at first.
    expect(within(days).getByRole('button', { name: 'Tuesday' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(within(days).getByRole('button', { name: 'Tuesday' }));
    fireEvent.click(within(days).getByRole('button', { name: 'Monday' }));
    fireEvent.click(within(days).getByRole('button', { name: 'Wednesday' }));
    fireEvent.click(screen.getByRole('radio', { name: 'After a number of times' }));
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Number of times' }), { target: { value: '10' } });
    choose('Remind me', '15 minutes before');
    fireEvent.change(screen.getByRole('textbox', { name: 'Notes' }), { target: { value: 'Knee, 20 minutes' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      url: '/api/v1/calendar/events/',
      method: 'POST',
      body: {
        title: 'Physio exercises',
        description: 'Knee, 20 minutes',
        type: 'Excercise',
        start_time: '2026-11-24T18:00:00+02:00',
        end_time: '2026-11-24T19:00:00+02:00',
        all_day: false,
        recurrence: 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10',
        reminder_minutes: 15,
        timezone: TZ,
      },
    });
  });

  it('says what is wrong before sending anything', async () => {
    const calls = mockFetch(() => json(201, {}));
    await open();
    choose('Repeat', 'Daily');
    fireEvent.change(screen.getByRole('spinbutton', { name: /Repeat every/ }), { target: { value: '0' } });
    fireEvent.change(screen.getByLabelText(/^End time/), { target: { value: '17:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter a title.')).toBeTruthy();
    expect(screen.getByText('The end must be after the start.')).toBeTruthy();
    expect(screen.getByText('Enter a number from 1 to 99.')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('shows the server’s field messages under their fields', async () => {
    mockFetch(() => json(400, { title: ['Ensure this field has no more than 200 characters.'], recurrence: ['The repeat rule is not valid.'] }));
    await open();
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Walk' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Ensure this field has no more than 200 characters.')).toBeTruthy();
    expect(screen.getByText('The repeat rule is not valid.')).toBeTruthy();
  });
});
