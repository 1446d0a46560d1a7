import { describe, expect, it } from 'vitest';
import { actionText } from './format';

const catalog: Record<string, string> = {
  'log.actions.record_read': 'Viewed health records',
  'log.verbs.update': 'Changed',
  'log.things.calendar': 'calendar',
  'log.composed': '{{verb}}: {{thing}}',
};
const t = (key: string, options?: Record<string, unknown>) =>
  (catalog[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(options?.[name] ?? ''));
const exists = (key: string) => key in catalog;

describe('the access log in words', () => {
  it('says an action the catalog names in its own sentence', () => {
    expect(actionText(t, exists, 'record_read')).toBe('Viewed health records');
  });
  it('composes the others from their area and verb', () => {
    expect(actionText(t, exists, 'calendar_event_update')).toBe('Changed: calendar');
  });
  it('shows an unknown action readably rather than nothing', () => {
    expect(actionText(t, exists, 'mystery_thing')).toBe('mystery thing');
  });
});
