import { describe, expect, it } from 'vitest';
import { summaryOf } from './help.service';

describe("an article's summary", () => {
  it('is the first paragraph', () => {
    expect(summaryOf('First paragraph here.\n\nSecond one.')).toBe('First paragraph here.');
  });
  it('drops the sentence that only introduces a list', () => {
    expect(summaryOf('A telehealth visit is a video consultation. To book one:\n\n1. Open it.')).toBe('A telehealth visit is a video consultation.');
    expect(summaryOf('Ένα ραντεβού τηλεϊατρικής είναι βιντεοκλήση. Για να κλείσετε ένα:\n\n1. Ανοίξτε.')).toBe('Ένα ραντεβού τηλεϊατρικής είναι βιντεοκλήση.');
  });
  it('keeps a paragraph that is only the introduction', () => {
    expect(summaryOf('To book one:\n\n1. Open it.')).toBe('To book one:');
  });
  it('cuts a long paragraph at a word', () => {
    const summary = summaryOf(`${'word '.repeat(60)}end.`);
    expect(summary.length).toBeLessThanOrEqual(181);
    expect(summary.endsWith('word…')).toBe(true);
  });
});
