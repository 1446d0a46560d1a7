import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { i18nReady } from '../lib/i18n';
import { PageTimeout } from './page-timeout';

describe('page timeout', () => {
  it('reloads the page when the server answers the ping', async () => {
    await i18nReady;
    const reload = vi.fn();
    render(<PageTimeout ping={async () => true} reload={reload} />);
    await waitFor(() => expect(reload).toHaveBeenCalledOnce());
  });

  it('shows the offline message when the ping fails, and pings again on retry', async () => {
    await i18nReady;
    const ping = vi.fn(async () => false);
    render(<PageTimeout ping={ping} reload={vi.fn()} />);
    expect(
      await screen.findByText("The page timed out while loading. Are you sure you're still connected to the Internet?"),
    ).toBeTruthy();
    screen.getByRole('button', { name: 'Try again' }).click();
    await waitFor(() => expect(ping).toHaveBeenCalledTimes(2));
  });
});
