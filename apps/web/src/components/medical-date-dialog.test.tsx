import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { MedicalDate } from '@healthbook/shared/records/medical-date';
import { i18n, i18nReady } from '../lib/i18n';
import enDates from '../locales/en/dates.json';
import elDates from '../locales/el/dates.json';
import { MedicalDateDialog, MedicalDateField } from './medical-date-dialog';

const TODAY = '2026-11-23';
const NO_DATE: MedicalDate = { date: null, part: null };

beforeAll(async () => {
  await i18nReady;
  await i18n.changeLanguage('en');
  await i18n.loadNamespaces(['dates', 'validation']);
});
afterEach(() => {
  cleanup();
});

function renderDialog(props: Partial<Parameters<typeof MedicalDateDialog>[0]> = {}) {
  const onSave = vi.fn();
  const onCancel = vi.fn();
  render(<MedicalDateDialog open title="Onset date" value={NO_DATE} today={TODAY} onSave={onSave} onCancel={onCancel} {...props} />);
  const dialog = screen.getByRole('dialog', { name: 'Onset date' });
  return { dialog, onSave, onCancel };
}

const group = (dialog: HTMLElement, name: string) => within(dialog).getByRole('group', { name });
const cell = (dialog: HTMLElement, groupName: string, name: string) => within(group(dialog, groupName)).getByRole('button', { name }) as HTMLButtonElement;
/** The year buttons of the page shown (not the page buttons). */
const years = (dialog: HTMLElement) => within(group(dialog, 'Year')).getAllByRole('button').filter((b) => /^\d{4}$/.test(b.textContent ?? '')) as HTMLButtonElement[];
const days = (dialog: HTMLElement) => within(group(dialog, 'Day')).getAllByRole('button') as HTMLButtonElement[];
const pressed = (dialog: HTMLElement, groupName: string) =>
  within(group(dialog, groupName))
    .queryAllByRole('button', { pressed: true })
    .map((b) => b.textContent);
const saveButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
const radio = (dialog: HTMLElement, name: string) => within(dialog).getByRole('radio', { name }) as HTMLInputElement;

/** Shows the year picker's page holding `year` and chooses it. */
function chooseYear(dialog: HTMLElement, year: number) {
  for (let guard = 0; guard < 13 && !years(dialog).some((b) => b.textContent === String(year)); guard++) {
    const first = Number(years(dialog)[0]!.textContent);
    fireEvent.click(within(dialog).getByRole('button', { name: year < first ? 'Previous years' : 'Next years' }));
  }
  fireEvent.click(cell(dialog, 'Year', String(year)));
}

describe('the medical date dialog', () => {
  it('is named by its title and offers the five options of the spec', () => {
    const { dialog } = renderDialog();
    expect(within(dialog).getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['Today', 'Exact date', 'Month & Year', 'Year only', 'In the past']);
    expect(within(dialog).getByRole('radiogroup').getAttribute('aria-label')).toBeTruthy();
  });

  it('Today sets today, and shows year, month and day with today chosen', () => {
    const { dialog } = renderDialog();
    fireEvent.click(radio(dialog, 'Today'));
    expect(radio(dialog, 'Today').checked).toBe(true);
    expect(pressed(dialog, 'Year')).toEqual(['2026']);
    expect(pressed(dialog, 'Month')).toEqual(['November']);
    expect(pressed(dialog, 'Day')).toEqual(['23']);
    expect(saveButton(dialog).disabled).toBe(false);
  });

  it('Exact date clears all; Month & Year sets the current month and year; Year only the current year', () => {
    const { dialog } = renderDialog({ value: { date: '2019-05-14', part: 'day' } });
    fireEvent.click(radio(dialog, 'Today'));
    fireEvent.click(radio(dialog, 'Exact date'));
    expect(pressed(dialog, 'Year')).toEqual([]);
    expect(pressed(dialog, 'Month')).toEqual([]);
    expect(pressed(dialog, 'Day')).toEqual([]);

    fireEvent.click(radio(dialog, 'Month & Year'));
    expect(pressed(dialog, 'Year')).toEqual(['2026']);
    expect(pressed(dialog, 'Month')).toEqual(['November']);
    expect(within(dialog).queryByRole('group', { name: 'Day' })).toBeNull();

    fireEvent.click(radio(dialog, 'Year only'));
    expect(pressed(dialog, 'Year')).toEqual(['2026']);
    expect(within(dialog).queryByRole('group', { name: 'Month' })).toBeNull();
    expect(within(dialog).queryByRole('group', { name: 'Day' })).toBeNull();
  });

  it('In the past shows no picker and saves no date', () => {
    const { dialog, onSave } = renderDialog({ value: { date: '2019-05-14', part: 'day' } });
    fireEvent.click(radio(dialog, 'In the past'));
    expect(within(dialog).queryAllByRole('group')).toEqual([]);
    fireEvent.click(saveButton(dialog));
    expect(onSave).toHaveBeenCalledWith({ date: null, part: 'past' });
  });

  it('keeps Save disabled for Exact date until day, month and year are chosen', () => {
    const { dialog, onSave } = renderDialog();
    expect(radio(dialog, 'Exact date').checked).toBe(true);
    expect(saveButton(dialog).disabled).toBe(true);
    fireEvent.click(cell(dialog, 'Day', '14'));
    expect(saveButton(dialog).disabled).toBe(true);
    fireEvent.click(cell(dialog, 'Month', 'May'));
    expect(saveButton(dialog).disabled).toBe(true);
    chooseYear(dialog, 2019);
    expect(saveButton(dialog).disabled).toBe(false);
    fireEvent.click(saveButton(dialog));
    expect(onSave).toHaveBeenCalledWith({ date: '2019-05-14', part: 'day' });
  });

  it('saves Month & Year as the first of the month with the month precision', () => {
    const { dialog, onSave } = renderDialog();
    fireEvent.click(radio(dialog, 'Month & Year'));
    chooseYear(dialog, 2019);
    fireEvent.click(cell(dialog, 'Month', 'May'));
    fireEvent.click(saveButton(dialog));
    expect(onSave).toHaveBeenCalledWith({ date: '2019-05-01', part: 'month' });
  });

  it('pages the year picker 12 years at a time, 1900 to 2055 in 13 pages, later years than today disabled', () => {
    const { dialog } = renderDialog();
    // Opens on today's page.
    expect(years(dialog).map((b) => b.textContent)).toEqual(Array.from({ length: 12 }, (_, k) => String(2020 + k)));
    expect(years(dialog).filter((b) => b.disabled).map((b) => b.textContent)).toEqual(['2027', '2028', '2029', '2030', '2031']);
    const previous = within(dialog).getByRole('button', { name: 'Previous years' }) as HTMLButtonElement;
    const next = within(dialog).getByRole('button', { name: 'Next years' }) as HTMLButtonElement;
    for (let k = 0; k < 10; k++) fireEvent.click(previous);
    expect(years(dialog).map((b) => b.textContent)).toEqual(Array.from({ length: 12 }, (_, k) => String(1900 + k)));
    expect(within(group(dialog, 'Year')).getByText('1900–1911')).toBeTruthy();
    expect(previous.disabled).toBe(true);
    let pages = 1;
    while (!next.disabled) {
      fireEvent.click(next);
      pages++;
      expect(years(dialog)).toHaveLength(12);
    }
    expect(pages).toBe(13);
    expect(years(dialog).map((b) => b.textContent)).toEqual(Array.from({ length: 12 }, (_, k) => String(2044 + k)));
    expect(years(dialog).every((b) => b.disabled)).toBe(true);
    // The page button just disabled hands focus to the other one.
    expect(document.activeElement).toBe(previous);
  });

  it('limits the day picker to the month length, in a grid of 5 rows by 7 columns', () => {
    const { dialog } = renderDialog();
    chooseYear(dialog, 2024);
    fireEvent.click(cell(dialog, 'Month', 'February'));
    expect(days(dialog)).toHaveLength(29);
    expect(days(dialog)[0]!.parentElement!.children).toHaveLength(35);
    chooseYear(dialog, 2023);
    expect(days(dialog)).toHaveLength(28);
    fireEvent.click(cell(dialog, 'Month', 'April'));
    expect(days(dialog)).toHaveLength(30);
    fireEvent.click(cell(dialog, 'Month', 'January'));
    expect(days(dialog)).toHaveLength(31);
    // 31 January, then February: the day February does not have is dropped.
    fireEvent.click(cell(dialog, 'Day', '31'));
    fireEvent.click(cell(dialog, 'Month', 'February'));
    expect(pressed(dialog, 'Day')).toEqual([]);
    expect(saveButton(dialog).disabled).toBe(true);
  });

  it('disables days before the date of birth and after today', () => {
    const { dialog } = renderDialog({ dob: '1980-04-02' });
    chooseYear(dialog, 1980);
    fireEvent.click(cell(dialog, 'Month', 'April'));
    expect(days(dialog).filter((b) => b.disabled).map((b) => b.textContent)).toEqual(['1']);
    fireEvent.click(radio(dialog, 'Today'));
    expect(days(dialog).filter((b) => b.disabled).map((b) => b.textContent)).toEqual(['24', '25', '26', '27', '28', '29', '30']);
    expect(cell(dialog, 'Month', 'December').disabled).toBe(true);
  });

  it('refuses a date before the birth date: shows why, and stays open', async () => {
    const { dialog, onSave } = renderDialog({ dob: '1980-04-02' });
    fireEvent.click(radio(dialog, 'Month & Year'));
    chooseYear(dialog, 1980);
    fireEvent.click(cell(dialog, 'Month', 'March'));
    fireEvent.click(saveButton(dialog));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The selected date is before your birth date');
    expect(onSave).not.toHaveBeenCalled();
    // The birth month itself is not before birth at the month's precision.
    fireEvent.click(cell(dialog, 'Month', 'April'));
    expect(within(dialog).queryByRole('alert')).toBeNull();
    fireEvent.click(saveButton(dialog));
    expect(onSave).toHaveBeenCalledWith({ date: '1980-04-01', part: 'month' });
  });

  it('refuses an invalid or future date with the catalog texts', () => {
    const { dialog, onSave } = renderDialog({ value: { date: '2023-02-30', part: 'day' } });
    fireEvent.click(saveButton(dialog));
    expect(within(dialog).getByRole('alert').textContent).toBe('Invalid Date');
    cleanup();
    const future = renderDialog({ value: { date: '2026-11-24', part: 'day' } });
    fireEvent.click(saveButton(future.dialog));
    expect(within(future.dialog).getByRole('alert').textContent).toBe('The date cannot be in the future');
    expect(onSave).not.toHaveBeenCalled();
    expect(future.onSave).not.toHaveBeenCalled();
  });

  it('starts from the value being edited', () => {
    const { dialog } = renderDialog({ value: { date: '2019-05-14', part: 'day' } });
    expect(radio(dialog, 'Exact date').checked).toBe(true);
    expect(pressed(dialog, 'Year')).toEqual(['2019']);
    expect(pressed(dialog, 'Month')).toEqual(['May']);
    expect(pressed(dialog, 'Day')).toEqual(['14']);
    cleanup();
    const month = renderDialog({ value: { date: '1987-03-01', part: 'month' } });
    expect(radio(month.dialog, 'Month & Year').checked).toBe(true);
    expect(years(month.dialog)[0]!.textContent).toBe('1984');
    expect(pressed(month.dialog, 'Year')).toEqual(['1987']);
    expect(pressed(month.dialog, 'Month')).toEqual(['March']);
    cleanup();
    const past = renderDialog({ value: { date: null, part: 'past' } });
    expect(radio(past.dialog, 'In the past').checked).toBe(true);
  });

  it('cancels with Cancel and with Esc', () => {
    const { dialog, onCancel, onSave } = renderDialog();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledOnce();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(onSave).not.toHaveBeenCalled();
  });

  it('makes every picker cell a toggle button in a named group', () => {
    const { dialog } = renderDialog({ value: { date: '2019-05-14', part: 'day' } });
    expect(within(dialog).getAllByRole('group').map((g) => g.getAttribute('aria-labelledby') && document.getElementById(g.getAttribute('aria-labelledby')!)?.textContent)).toEqual(['Year', 'Month', 'Day']);
    const cells = [...years(dialog), ...within(group(dialog, 'Month')).getAllByRole('button'), ...days(dialog)];
    expect(cells).toHaveLength(12 + 12 + 31);
    for (const b of cells) {
      expect(b.tagName).toBe('BUTTON');
      expect(b.getAttribute('aria-pressed')).toBe(b.textContent === '2019' || b.textContent === 'May' || b.textContent === '14' ? 'true' : 'false');
      expect(b.tabIndex).toBe(0);
    }
  });

  it('speaks Greek: options, buttons and month names', async () => {
    await i18n.changeLanguage('el');
    await i18n.loadNamespaces(['dates', 'validation']);
    try {
      const { dialog } = renderDialog({ title: 'Onset date' });
      expect(within(dialog).getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['Σήμερα', 'Ακριβής ημερομηνία', 'Μήνας και έτος', 'Μόνο έτος', 'Στο παρελθόν']);
      const months = within(within(dialog).getByRole('group', { name: 'Μήνας' })).getAllByRole('button');
      expect(months[0]!.textContent).toBe('Ιανουάριος');
      expect(months[4]!.textContent).toBe('Μάιος');
      expect(within(dialog).getByRole('button', { name: 'Αποθήκευση' })).toBeTruthy();
      expect(within(dialog).getByRole('button', { name: 'Προηγούμενα έτη' })).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('has the same keys in the English and Greek catalogs', () => {
    const keys = (o: object, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v !== null ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`]));
    expect(keys(elDates).sort()).toEqual(keys(enDates).sort());
  });
});

describe('the medical date field', () => {
  function Form({ initial = NO_DATE, error }: { initial?: MedicalDate; error?: string }) {
    const [value, setValue] = useState(initial);
    return <MedicalDateField label="Onset date" value={value} onChange={setValue} error={error} today={TODAY} dob="1980-04-02" name="onset_date" />;
  }

  it('is named by its label and shows the value as entered, or the placeholder', () => {
    render(<Form initial={{ date: '2019-05-14', part: 'day' }} />);
    const field = screen.getByRole('textbox', { name: 'Onset date' }) as HTMLInputElement;
    expect(field.value).toBe('14 May 2019');
    expect(field.readOnly).toBe(true);
    expect(field.name).toBe('onset_date');
    expect(field.getAttribute('aria-haspopup')).toBe('dialog');
    cleanup();
    const shown = (value: MedicalDate) => {
      render(<Form initial={value} />);
      const input = screen.getByRole('textbox', { name: 'Onset date' }) as HTMLInputElement;
      const text = input.value || input.placeholder;
      cleanup();
      return text;
    };
    expect(shown({ date: '2019-05-01', part: 'month' })).toBe('May 2019');
    expect(shown({ date: '2019-01-01', part: 'year' })).toBe('2019');
    expect(shown({ date: null, part: 'past' })).toBe('In the past');
    expect(shown(NO_DATE)).toBe('Choose a date');
  });

  it('links its error text and marks itself invalid', () => {
    render(<Form error="Invalid Date" />);
    const field = screen.getByRole('textbox', { name: 'Onset date' });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toBe('Invalid Date');
  });

  it('opens the dialog on a click or Enter and shows the saved value; Esc leaves it unchanged', async () => {
    render(<Form initial={{ date: '2019-05-14', part: 'day' }} />);
    const field = screen.getByRole('textbox', { name: 'Onset date' }) as HTMLInputElement;
    fireEvent.click(field);
    let dialog = await screen.findByRole('dialog', { name: 'Onset date' });
    fireEvent.click(radio(dialog, 'Year only'));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(field.value).toBe('14 May 2019');

    fireEvent.keyDown(field, { key: 'Enter' });
    dialog = await screen.findByRole('dialog', { name: 'Onset date' });
    // Starts again from the value, not from the cancelled choice.
    expect(radio(dialog, 'Exact date').checked).toBe(true);
    fireEvent.click(radio(dialog, 'Month & Year'));
    fireEvent.click(saveButton(dialog));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(field.value).toBe('November 2026');
  });

  it('keeps its label as its name when required', () => {
    render(<MedicalDateField label="Onset date" value={NO_DATE} onChange={() => undefined} required />);
    expect(screen.getByRole('textbox', { name: 'Onset date' }).getAttribute('aria-required')).toBe('true');
  });

  it('does not open when disabled', () => {
    render(<MedicalDateField label="Onset date" value={NO_DATE} onChange={() => undefined} disabled />);
    const field = screen.getByRole('textbox', { name: 'Onset date' });
    fireEvent.click(field);
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
