import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { i18n, i18nReady } from '../../lib/i18n';
import { ConfirmDialog, InfoDialog } from './confirm-dialog';
import { ScrollToTop } from './scroll-to-top';
import { useUnsavedChangesGuard } from './unsaved-changes';

beforeAll(async () => {
  await i18nReady;
  await i18n.changeLanguage('en');
  await i18n.loadNamespaces('shell');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the confirm dialog', () => {
  it('is titled "Confirm" unless named, answers Yes, and Esc cancels', async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(
      <ConfirmDialog open onConfirm={onConfirm} onCancel={onCancel}>
        Remove this device?
      </ConfirmDialog>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Confirm' });
    expect(within(dialog).getByText('Remove this device?')).toBeTruthy();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledOnce();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(2);
  });
});

describe('the information dialog', () => {
  it('has OK only, the default title "Confirm", is 300 px wide, and Esc or OK closes it', async () => {
    const onClose = vi.fn();
    render(
      <InfoDialog open onClose={onClose}>
        Saved.
      </InfoDialog>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Confirm' });
    expect(within(dialog).getAllByRole('button').map((b) => b.textContent)).toEqual(['OK']);
    expect(getComputedStyle(dialog).width).toBe('300px');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});

describe('the scroll-to-top button', () => {
  it('appears 190 ms after the page is scrolled past 500 px, and brings it back to the top', async () => {
    vi.useFakeTimers();
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    render(<ScrollToTop />);
    const scroll = (y: number) => {
      Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
      fireEvent.scroll(window);
    };
    scroll(400);
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(screen.queryByRole('button', { name: 'Back to the top of the page' })).toBeNull();
    scroll(600);
    await act(() => vi.advanceTimersByTimeAsync(150));
    expect(screen.queryByRole('button', { name: 'Back to the top of the page' })).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(50));
    fireEvent.click(screen.getByRole('button', { name: 'Back to the top of the page' }));
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0 }));
    vi.unstubAllGlobals();
  });
});

describe('the unsaved-changes guard', () => {
  function Form() {
    const [value, setValue] = useState('');
    const guard = useUnsavedChangesGuard(value !== '');
    return (
      <>
        <label>
          Address <input value={value} onChange={(e) => setValue(e.target.value)} />
        </label>
        <Link to="/elsewhere">Leave</Link>
        {guard}
      </>
    );
  }
  const renderForm = () => {
    const router = createMemoryRouter(
      [
        { path: '/form', element: <Form /> },
        { path: '/elsewhere', element: <p>Elsewhere</p> },
      ],
      { initialEntries: ['/form'] },
    );
    render(<RouterProvider router={router} />);
    return router;
  };

  it('lets a clean form go without asking', async () => {
    renderForm();
    fireEvent.click(screen.getByRole('link', { name: 'Leave' }));
    expect(await screen.findByText('Elsewhere')).toBeTruthy();
  });

  it('asks "Exit without saving?" for an edited form: Stay keeps it, Leave goes', async () => {
    const router = renderForm();
    fireEvent.change(screen.getByLabelText('Address'), { target: { value: 'https://videos.example' } });
    fireEvent.click(screen.getByRole('link', { name: 'Leave' }));
    const dialog = await screen.findByRole('dialog', { name: 'Exit without saving?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/form');
    expect((screen.getByLabelText('Address') as HTMLInputElement).value).toBe('https://videos.example');
    fireEvent.click(screen.getByRole('link', { name: 'Leave' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Exit without saving?' })).getByRole('button', { name: 'Leave without saving' }));
    expect(await screen.findByText('Elsewhere')).toBeTruthy();
  });
});
