import { describe, expect, it } from 'vitest';
import { VISIT_EARLY_MINUTES, VISIT_EXTEND_MAX_MINUTES, VISIT_EXTEND_MINUTES, extendedVisitEnd, visitPhase, visitWindow } from './visits';

const appointment = { start: '2026-12-01T09:00:00.000Z', end: '2026-12-01T09:30:00.000Z' };
const at = (iso: string) => new Date(iso);

describe('a video visit’s window', () => {
  it('opens ten minutes before the appointment and closes at its end', () => {
    const w = visitWindow(appointment);
    expect(VISIT_EARLY_MINUTES).toBe(10);
    expect(w.opensAt.toISOString()).toBe('2026-12-01T08:50:00.000Z');
    expect(w.closesAt.toISOString()).toBe('2026-12-01T09:30:00.000Z');
  });

  it('says early, open or over, the opening included and the close excluded', () => {
    const w = visitWindow(appointment);
    expect(visitPhase(w, at('2026-12-01T08:49:59.999Z'))).toBe('early');
    expect(visitPhase(w, at('2026-12-01T08:50:00.000Z'))).toBe('open');
    expect(visitPhase(w, at('2026-12-01T09:29:59.999Z'))).toBe('open');
    expect(visitPhase(w, at('2026-12-01T09:30:00.000Z'))).toBe('over');
  });

  it('runs to the extension the provider gave, never before the end nor more than two hours after it', () => {
    expect(visitWindow(appointment, '2026-12-01T09:45:00.000Z').closesAt.toISOString()).toBe('2026-12-01T09:45:00.000Z');
    expect(visitWindow(appointment, '2026-12-01T09:10:00.000Z').closesAt.toISOString()).toBe('2026-12-01T09:30:00.000Z');
    expect(visitWindow(appointment, '2026-12-02T00:00:00.000Z').closesAt.toISOString()).toBe('2026-12-01T11:30:00.000Z');
    expect(visitWindow(appointment, null).closesAt.toISOString()).toBe('2026-12-01T09:30:00.000Z');
  });

  it('extends by fifteen minutes from the later of its end and now, up to the bound', () => {
    const w = visitWindow(appointment);
    expect(extendedVisitEnd(appointment, w, at('2026-12-01T09:20:00.000Z')).toISOString()).toBe('2026-12-01T09:45:00.000Z');
    // Extended after the window had closed: fifteen minutes from now.
    expect(extendedVisitEnd(appointment, w, at('2026-12-01T09:40:00.000Z')).toISOString()).toBe('2026-12-01T09:55:00.000Z');
    const late = visitWindow(appointment, '2026-12-01T11:25:00.000Z');
    expect(extendedVisitEnd(appointment, late, at('2026-12-01T11:00:00.000Z')).toISOString()).toBe('2026-12-01T11:30:00.000Z');
    expect(VISIT_EXTEND_MINUTES).toBe(15);
    expect(VISIT_EXTEND_MAX_MINUTES).toBe(120);
  });
});
