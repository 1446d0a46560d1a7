import { useCallback, useSyncExternalStore } from 'react';

/**
 * The open state of the shell's three drawers, held by the client and remembered across
 * reloads (local storage keys navDrawer, calendarDrawer and settingsDrawer, as the spec names them).
 */
export type DrawerName = 'navDrawer' | 'calendarDrawer' | 'settingsDrawer';

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

function read(name: DrawerName, fallback: boolean): boolean {
  try {
    const raw = localStorage.getItem(name);
    return raw === null ? fallback : raw === 'true';
  } catch {
    return fallback;
  }
}

export function setDrawer(name: DrawerName, open: boolean): void {
  try {
    localStorage.setItem(name, String(open));
  } catch {
    // storage unavailable: the state lives for this page only
  }
  notify();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.endsWith('Drawer')) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** [open, setOpen] of one drawer; `fallback` when nothing is remembered yet. */
export function useDrawer(name: DrawerName, fallback = false): [boolean, (open: boolean) => void] {
  const open = useSyncExternalStore(
    subscribe,
    () => read(name, fallback),
    () => fallback,
  );
  const set = useCallback((next: boolean) => setDrawer(name, next), [name]);
  return [open, set];
}
