import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { IDLE_TIMEOUT_MS } from '@healthbook/shared/constants';
import { i18n, i18nReady } from '../../../lib/i18n';
import type { Clock } from '../hooks/clock';
import { IdleAlert } from './idle-alert';

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const dialog = () => screen.queryByRole('dialog', { name: 'Session timeout' });
const text = (n: number) => `Your session is about to expire. Your session will be logged out in ${n} seconds.`;

describe('idle session alert', () => {
  beforeAll(async () => {
    await i18nReady;
    await i18n.changeLanguage('en');
    await i18n.loadNamespaces('account');
  });
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('opens after 9 minutes without activity and counts down from 60 seconds', () => {
    render(<IdleAlert onLogout={vi.fn()} />);
    advance(IDLE_TIMEOUT_MS - 1);
    expect(dialog()).toBeNull();
    advance(1);
    expect(dialog()).not.toBeNull();
    expect(screen.getByText(text(60))).toBeTruthy();
    advance(1000);
    expect(screen.getByText(text(59))).toBeTruthy();
    advance(58_000);
    expect(screen.getByText('Your session is about to expire. Your session will be logged out in 1 second.')).toBeTruthy();
  });

  it('activity puts the alert off: it needs 9 minutes without any', () => {
    render(<IdleAlert onLogout={vi.fn()} />);
    advance(300_000);
    fireEvent.keyDown(document.body, { key: 'a' });
    advance(300_000);
    expect(dialog()).toBeNull();
    fireEvent.pointerMove(document.body);
    advance(IDLE_TIMEOUT_MS - 1);
    expect(dialog()).toBeNull();
    advance(1);
    expect(dialog()).not.toBeNull();
  });

  it('signs out when the countdown reaches zero', () => {
    const onLogout = vi.fn();
    render(<IdleAlert onLogout={onLogout} />);
    advance(IDLE_TIMEOUT_MS);
    advance(59_000);
    expect(onLogout).not.toHaveBeenCalled();
    advance(1000);
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('activity while the alert shows does not dismiss it', () => {
    const onLogout = vi.fn();
    render(<IdleAlert onLogout={onLogout} />);
    advance(IDLE_TIMEOUT_MS);
    fireEvent.pointerMove(document.body);
    advance(60_000);
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('Continue Session closes the alert and starts watching again', () => {
    const onLogout = vi.fn();
    render(<IdleAlert onLogout={onLogout} />);
    advance(IDLE_TIMEOUT_MS);
    fireEvent.click(screen.getByRole('button', { name: 'Continue Session' }));
    advance(1000);
    expect(dialog()).toBeNull();
    advance(60_000);
    expect(onLogout).not.toHaveBeenCalled();
    advance(IDLE_TIMEOUT_MS - 61_000);
    expect(dialog()).not.toBeNull();
    expect(screen.getByText(text(60))).toBeTruthy();
  });

  it('Logout signs out at once', () => {
    const onLogout = vi.fn();
    render(<IdleAlert onLogout={onLogout} />);
    advance(IDLE_TIMEOUT_MS);
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('counts real time, not timer ticks: a tab that slept past the deadline signs out at its next tick', () => {
    const onLogout = vi.fn();
    render(<IdleAlert onLogout={onLogout} />);
    advance(IDLE_TIMEOUT_MS);
    vi.setSystemTime(Date.now() + 5 * 60_000); // the laptop slept; no timer ran
    advance(1000);
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('takes its timing from an injected clock', () => {
    let now = 0;
    const timers: Array<{ at: number; callback: () => void; id: number }> = [];
    let nextId = 1;
    const clock: Clock = {
      now: () => now,
      setTimeout: (callback, ms) => {
        const id = nextId++;
        timers.push({ at: now + ms, callback, id });
        return id;
      },
      clearTimeout: (id) => {
        const index = timers.findIndex((t) => t.id === id);
        if (index >= 0) timers.splice(index, 1);
      },
    };
    const runUntil = (time: number) =>
      act(() => {
        for (;;) {
          timers.sort((a, b) => a.at - b.at);
          const due = timers[0];
          if (!due || due.at > time) break;
          timers.shift();
          now = due.at;
          due.callback();
        }
        now = time;
      });
    const onLogout = vi.fn();
    render(<IdleAlert onLogout={onLogout} idleMs={1000} countdownS={3} clock={clock} />);
    runUntil(999);
    expect(dialog()).toBeNull();
    runUntil(1000);
    expect(screen.getByText(text(3))).toBeTruthy();
    runUntil(3999);
    expect(onLogout).not.toHaveBeenCalled();
    runUntil(4000);
    expect(onLogout).toHaveBeenCalledOnce();
  });
});
