import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { SourceConnection } from '@healthbook/shared/contracts/sources';
import { renderPage } from '../../../test/render-page';
import { ConnectionCard } from './connection-card';

const base: SourceConnection = {
  id: 3,
  source_id: 1,
  source_name: 'Riverside Clinic',
  status: 'up_to_date',
  problem: null,
  last_synced_at: '2026-11-27T10:00:00Z',
  records: 42,
  last_run: {
    full: true,
    added: 40,
    updated: 2,
    unchanged: 0,
    deleted: 1,
    documents: 0,
    skipped: [{ type: 'Coverage', count: 2, reason: 'Not kept in the health record.' }],
    refused: [{ type: 'Immunization', status: 403 }],
    started_at: '2026-11-27T09:59:00Z',
    finished_at: '2026-11-27T10:00:00Z',
  },
  created_at: '2026-11-27T09:58:00Z',
};

async function card(connection: Partial<SourceConnection>, handlers: { onSync?: () => void; onReconnect?: () => void; onDisconnect?: () => void } = {}) {
  const props = { onSync: vi.fn(), onReconnect: vi.fn(), onDisconnect: vi.fn(), ...handlers };
  await renderPage({ path: 'x', element: <ConnectionCard connection={{ ...base, ...connection }} {...props} />, at: '/healthbook/x' });
  return { props, article: await screen.findByRole('article', { name: 'Riverside Clinic' }) };
}

describe('a connected provider’s card', () => {
  afterEach(cleanup);

  it('up to date: the last sync, the records brought and what the sync did, its details folded', async () => {
    const { article, props } = await card({});
    expect(within(article).getByText('Up to date')).toBeTruthy();
    expect(within(article).getByText('42 records')).toBeTruthy();
    expect(within(article).getByText('40 added, 2 updated, 1 deleted, 0 unchanged')).toBeTruthy();
    expect(within(article).queryByRole('progressbar')).toBeNull();
    const details = within(article).getByRole('button', { name: 'Details of the last sync' });
    expect(details.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(details);
    expect(details.getAttribute('aria-expanded')).toBe('true');
    expect(within(article).getByText(/Not kept in the health record\./)).toBeTruthy();
    expect(within(article).getByText(/was refused by the provider \(code 403\)/)).toBeTruthy();
    fireEvent.click(within(article).getByRole('button', { name: 'Sync now' }));
    expect(props.onSync).toHaveBeenCalledOnce();
    fireEvent.click(within(article).getByRole('button', { name: 'Disconnect' }));
    expect(props.onDisconnect).toHaveBeenCalledOnce();
  });

  it('syncing: says so with a progress bar, and Sync now waits', async () => {
    const { article } = await card({ status: 'syncing', last_synced_at: null, last_run: null, records: 0 });
    expect(within(article).getByText('Syncing…')).toBeTruthy();
    expect(within(article).getByRole('progressbar', { name: 'Syncing with Riverside Clinic' })).toBeTruthy();
    expect(within(article).getByText('Not yet')).toBeTruthy();
    expect((within(article).getByRole('button', { name: 'Sync now' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('pending reads as syncing too', async () => {
    const { article } = await card({ status: 'pending' });
    expect(within(article).getByText('Syncing…')).toBeTruthy();
  });

  it('needs reconnecting: the problem and Reconnect (Sync now waits)', async () => {
    const { article, props } = await card({ status: 'needs_reconnect', problem: 'Riverside Clinic no longer accepts this connection.' });
    expect(within(article).getByText('Needs reconnecting')).toBeTruthy();
    expect(within(article).getByText('Riverside Clinic no longer accepts this connection.')).toBeTruthy();
    expect((within(article).getByRole('button', { name: 'Sync now' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(article).getByRole('button', { name: 'Reconnect' }));
    expect(props.onReconnect).toHaveBeenCalledOnce();
  });

  it('failed: the problem', async () => {
    const { article } = await card({ status: 'failed', problem: 'Riverside Clinic could not be reached.' });
    expect(within(article).getByText('Sync failed')).toBeTruthy();
    expect(within(article).getByText('Riverside Clinic could not be reached.')).toBeTruthy();
  });

  it('read-only access: nothing to press', async () => {
    await renderPage({
      path: 'x',
      element: <ConnectionCard connection={base} canWrite={false} onSync={vi.fn()} onReconnect={vi.fn()} onDisconnect={vi.fn()} />,
      at: '/healthbook/x',
    });
    const article = await screen.findByRole('article', { name: 'Riverside Clinic' });
    expect(within(article).queryByRole('button', { name: 'Sync now' })).toBeNull();
  });
});
