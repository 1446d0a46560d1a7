import { describe, expect, it } from 'vitest';
import { formatDay, parseTags } from './moods';

describe('journal helpers', () => {
  it('splits tags at commas, trimmed, each once', () => {
    expect(parseTags(' walk, sea ,, Walk,sleep ')).toEqual(['walk', 'sea', 'sleep']);
    expect(parseTags('')).toEqual([]);
  });
  it('writes a day without shifting it', () => {
    expect(formatDay('2026-01-10', 'en')).toBe('Jan 10, 2026');
    expect(formatDay('2026-01-10', 'el', 'long')).toBe('10 Ιανουαρίου 2026');
  });
});
