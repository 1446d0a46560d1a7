import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CalendarEventBodySchema, CalendarEventSchema, CALENDAR_EVENT_READ_ONLY } from './calendar';
import { CreateShareBodySchema } from './sharing';
import { fieldRequirementIssues, readOnlyFields, writableBody } from './round-trip';

const Answer = z.object({ id: z.number(), name: z.string(), created_at: z.string() });
const READ_ONLY = readOnlyFields(Answer, ['id', 'created_at']);

describe('readOnlyFields', () => {
  it('names fields of the answer only', () => {
    expect(READ_ONLY).toEqual(['id', 'created_at']);
    expect(() => readOnlyFields(Answer, ['id', 'nope' as 'id'])).toThrow(/nope is not a field/);
  });
});

describe('writableBody', () => {
  const Body = writableBody(z.object({ name: z.string() }).strict(), READ_ONLY);

  it('accepts the read-only fields whatever their value and drops them', () => {
    expect(Body.parse({ id: 7, name: 'Anna', created_at: 'whenever' })).toEqual({ name: 'Anna' });
    expect(Body.parse({ id: { nested: true }, name: 'Anna' })).toEqual({ name: 'Anna' });
  });

  it('still refuses a field that is neither writable nor read-only (strict bodies stay strict)', () => {
    const result = Body.safeParse({ name: 'Anna', nmae: 'typo' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['nmae'] });
  });

  it('refuses a field declared both writable and read-only', () => {
    expect(() => writableBody(z.object({ id: z.number() }), ['id'])).toThrow(/both writable and read-only/);
  });

  it("keeps the body's OpenAPI name on what clients send", () => {
    const named = z.object({ name: z.string() }).meta({ id: 'RoundTripProbeBody' });
    const body = writableBody(named, READ_ONLY);
    expect(z.globalRegistry.get(named)).toBeUndefined();
    expect(z.globalRegistry.get(body.in)).toMatchObject({ id: 'RoundTripProbeBody' });
  });

  it('takes a calendar event exactly as its answer gives it', () => {
    const answer = CalendarEventSchema.parse({
      event_id: 3,
      title: 'Physiotherapy',
      description: null,
      color: 'blue',
      type: 'Appointment',
      start_time: '2099-03-02T09:00:00.000Z',
      end_time: '2099-03-02T10:00:00.000Z',
      all_day: false,
      is_recurring: false,
      recurrence: null,
      reminder_minutes: 30,
      timezone: 'UTC',
      patient_id: 9,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    const body = CalendarEventBodySchema.parse(answer);
    for (const key of CALENDAR_EVENT_READ_ONLY) expect(body).not.toHaveProperty(key);
    expect(body).toMatchObject({ title: 'Physiotherapy', type: 'Appointment', reminder_minutes: 30, timezone: 'UTC' });
  });
});

describe('fields that count only with another', () => {
  const rules = [
    { field: 'expires_at', requires: 'expires_in', value: 'custom' },
    { field: 'is_recurring', requires: 'recurrence' },
  ];

  it('names both fields when the other is missing or has another value', () => {
    expect(fieldRequirementIssues({ expires_at: 'x' }, rules)).toEqual([
      { path: ['expires_at'], message: 'validation:fieldRequiresValue', params: { field: 'expires_at', other: 'expires_in', value: '"custom"' } },
    ]);
    expect(fieldRequirementIssues({ expires_at: 'x', expires_in: '7d' }, rules)).toHaveLength(1);
    expect(fieldRequirementIssues({ is_recurring: true, recurrence: null }, rules)).toEqual([
      { path: ['is_recurring'], message: 'validation:fieldRequiresField', params: { field: 'is_recurring', other: 'recurrence' } },
    ]);
  });

  it('lets the pair through, and a field that is not sent (or false) needs nothing', () => {
    expect(fieldRequirementIssues({ expires_at: 'x', expires_in: 'custom' }, rules)).toEqual([]);
    expect(fieldRequirementIssues({ is_recurring: true, recurrence: 'FREQ=DAILY' }, rules)).toEqual([]);
    expect(fieldRequirementIssues({ is_recurring: false }, rules)).toEqual([]);
    expect(fieldRequirementIssues({ expires_in: '1h' }, rules)).toEqual([]);
  });

  it("gives a share's default expiry only after the check (an expires_at alone is refused, not overridden by 7 days)", () => {
    const base = { categories: ['condition'], recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example' };
    const alone = CreateShareBodySchema.safeParse({ ...base, expires_at: '2099-01-01T10:00:00Z' });
    expect(alone.success).toBe(false);
    expect(alone.error?.issues[0]).toMatchObject({ path: ['expires_at'], message: 'validation:fieldRequiresValue' });
    expect(CreateShareBodySchema.parse(base).expires_in).toBe('7d');
    expect(CreateShareBodySchema.parse({ ...base, expires_in: 'custom', expires_at: '2099-01-01T10:00:00Z' })).toMatchObject({ expires_in: 'custom', expires_at: '2099-01-01T10:00:00Z' });
  });
});
