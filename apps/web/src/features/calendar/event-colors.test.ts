import { describe, expect, it } from 'vitest';
import { getContrastRatio } from '@mui/system/colorManipulator';
import { EVENT_TYPES } from '@healthbook/shared/calendar';
import { buildTheme } from '../../lib/theme';
import { eventColors } from './event-colors';

describe('event colours', () => {
  for (const mode of ['light', 'dark'] as const) {
    it(`every type's text reads on its colour in ${mode} mode (WCAG AA)`, () => {
      for (const { color } of EVENT_TYPES) {
        const { main, text } = eventColors(color, mode);
        expect(getContrastRatio(main, text), `${color} ${main} / ${text}`).toBeGreaterThanOrEqual(4.5);
      }
    });

    it(`the types are told apart in ${mode} mode, and stand out from the page`, () => {
      const mains = EVENT_TYPES.map(({ color }) => eventColors(color, mode).main);
      expect(new Set(mains).size).toBe(EVENT_TYPES.length);
      const page = buildTheme(null, mode).palette.background.paper;
      for (const main of mains) expect(getContrastRatio(main, page), main).toBeGreaterThanOrEqual(1.8);
    });
  }
});
