import { useSyncExternalStore } from 'react';
import { session } from './session';

/**
 * Whose record this tab is viewing: null for the signed-in user's own, else the id of a patient
 * they were let into (care network, a family member they manage). Kept per tab (sessionStorage)
 * and tied to the account that chose it: another account signing in sees its own record.
 *
 * The API client sends it with every call as the `X-Patient-Id` header, so every page acts on
 * that patient without knowing it; the server decides what the user may do there
 * (patients.policy.ts), exactly as for `?patient=`.
 */
const KEY = 'viewing-patient';
type Listener = () => void;
const listeners = new Set<Listener>();
/** Told when the server answered a call for the viewed record with 404/403: access may have ended or changed. */
const doubtListeners = new Set<Listener>();

interface Stored {
  user: number;
  patient: number;
}

function read(): number | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    const stored = raw ? (JSON.parse(raw) as Partial<Stored>) : null;
    const user = session.claims()?.user_id;
    if (!stored || typeof stored.patient !== 'number' || user === undefined || stored.user !== user) return null;
    return stored.patient;
  } catch {
    return null;
  }
}

export const viewingPatient = {
  /** The patient being viewed, or null for the user's own record. */
  get: read,
  /** Views another patient's record (null: back to one's own). Tells every listener (the app resets its cached data). */
  set(patientId: number | null): void {
    const user = session.claims()?.user_id;
    if (patientId === null || user === undefined) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, JSON.stringify({ user, patient: patientId } satisfies Stored));
    for (const listener of [...listeners]) listener();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /**
   * The API client's report that a call made for the viewed record was refused (404: not there
   * for this user any more, or 403: read-only now). The app then checks the list of records at
   * once (lib/record-access.ts) rather than waiting for its next poll.
   */
  doubt(): void {
    for (const listener of [...doubtListeners]) listener();
  },
  onDoubt(listener: Listener): () => void {
    doubtListeners.add(listener);
    return () => doubtListeners.delete(listener);
  },
};

// Signing out (or another account signing in) ends the viewing: the stored choice no longer matches.
session.onChange(() => {
  for (const listener of [...listeners]) listener();
});

/** The patient this tab is viewing (null: the user's own record); re-renders when it changes. */
export function useViewingPatientId(): number | null {
  return useSyncExternalStore(viewingPatient.subscribe, read, () => null);
}
