import { beforeEach, describe, expect, it } from 'vitest';
import { pendingInvitation } from './pending-invitation';

const TOKEN = 'AbCdEf0123456789_-xyz';

describe('the invitation token this tab holds', () => {
  beforeEach(() => {
    sessionStorage.clear();
    window.history.replaceState(null, '', '/healthbook/caring-person-info');
  });

  it('is taken from the fragment, kept for the tab and removed from the address bar', () => {
    window.history.replaceState(null, '', `/healthbook/caring-person-info#token=${TOKEN}`);
    expect(pendingInvitation.capture()).toBe(TOKEN);
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/healthbook/caring-person-info');
    // A reload (no fragment any more) still has it.
    expect(pendingInvitation.capture()).toBe(TOKEN);
  });

  it('brings the tab back once after a sign-in elsewhere, and is forgotten once answered', () => {
    window.history.replaceState(null, '', `/healthbook/caring-person-info#token=${TOKEN}`);
    pendingInvitation.capture();
    expect(pendingInvitation.shouldReturn()).toBe(true);
    pendingInvitation.markReturned();
    expect(pendingInvitation.shouldReturn()).toBe(false);
    expect(pendingInvitation.token()).toBe(TOKEN);
    pendingInvitation.clear();
    expect(pendingInvitation.token()).toBeNull();
    expect(pendingInvitation.shouldReturn()).toBe(false);
  });

  it('survives a sign-out that empties the storage when restored', () => {
    pendingInvitation.restore(TOKEN);
    sessionStorage.clear();
    expect(pendingInvitation.token()).toBeNull();
    pendingInvitation.restore(TOKEN);
    expect(pendingInvitation.token()).toBe(TOKEN);
  });

  it('has nothing without a link', () => {
    expect(pendingInvitation.capture()).toBeNull();
  });
});
