import { describe, expect, it } from 'vitest';
import { getContrastRatio } from '@mui/material/styles';
import { buildTheme, readableOn } from './theme';

describe('organisation theme', () => {
  it('uses the organisation colour, or #0476d9 when it has none', () => {
    expect(buildTheme('#00695c').palette.primary.main).toBe('#00695c');
    expect(buildTheme(null).palette.primary.main).toBe('#0476d9');
  });

  it('underlines links, so that colour is not what tells them from the text around them', () => {
    expect(buildTheme(null).components?.MuiLink?.defaultProps?.underline).toBe('always');
  });

  it('darkens a light brand colour until link text is readable (AA)', () => {
    const text = readableOn('#7fd3ff', '#f5f7fa');
    expect(getContrastRatio(text, '#f5f7fa')).toBeGreaterThanOrEqual(4.5);
    expect(readableOn('#003366', '#f5f7fa')).toBe('#003366');
  });

  it('writes on a button in the organisation colour in white or dark, whichever reads (AA), in both modes', () => {
    for (const color of ['#0476d9', '#00695c', '#7fd3ff', '#ffb300', '#6a1b9a']) {
      for (const mode of ['light', 'dark'] as const) {
        const { main, contrastText } = buildTheme(color, mode).palette.primary;
        expect(getContrastRatio(contrastText, main), `${color} ${mode}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });
});
