import { useSyncExternalStore } from 'react';

export type ColorMode = 'light' | 'dark';

/**
 * Light or dark, for every page. Signed in, the user's setting decides (kept on the server,
 * so it follows them to every device); the last choice is also kept on the device (key
 * colorMode, kept on sign-out like the language), so the signed-out pages match it; without
 * one, the device's own preference (prefers-color-scheme).
 */
export const COLOR_MODE_KEY = 'colorMode';

const listeners = new Set<() => void>();

function prefersDark(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
}

export function deviceColorMode(): ColorMode {
  try {
    const stored = localStorage.getItem(COLOR_MODE_KEY);
    if (stored === 'light' || stored === 'dark') return stored;
  } catch {
    // storage unavailable
  }
  return prefersDark() ? 'dark' : 'light';
}

/** Keeps the choice on this device (called when a signed-in user's setting is known or changes). */
export function rememberColorMode(mode: ColorMode): void {
  try {
    if (localStorage.getItem(COLOR_MODE_KEY) === mode) return;
    localStorage.setItem(COLOR_MODE_KEY, mode);
  } catch {
    return;
  }
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const media = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  media?.addEventListener('change', listener);
  return () => {
    listeners.delete(listener);
    media?.removeEventListener('change', listener);
  };
}

/** The device's mode (signed-out pages), following changes of the stored choice and of the device preference. */
export const useDeviceColorMode = (): ColorMode => useSyncExternalStore(subscribe, deviceColorMode, () => 'light');
