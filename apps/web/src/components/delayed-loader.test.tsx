import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { DelayedLoader } from './delayed-loader';

describe('delayed loader', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows nothing for the first 400 ms, then the loading view', () => {
    render(<DelayedLoader label="Loading…" />);
    act(() => vi.advanceTimersByTime(399));
    expect(screen.queryByRole('status')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('status')).toBeTruthy();
  });
});
