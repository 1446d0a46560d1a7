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

describe('the plain pages’ colours (components/plain/theme-vars.tsx)', () => {
  it('are the MUI theme’s, for any organisation colour and mode', async () => {
    const { themeVars } = await import('../components/plain/theme-vars');
    for (const color of ['#0476d9', '#00695c', '#7fd3ff', '#ffb300', null]) {
      for (const mode of ['light', 'dark'] as const) {
        const { palette } = buildTheme(color, mode);
        const vars = themeVars(color, mode);
        expect(vars['--hb-primary'], `${color} ${mode}`).toBe(palette.primary.main);
        expect(vars['--hb-primary-dark']).toBe(palette.primary.dark);
        expect(vars['--hb-on-primary']).toBe(palette.primary.contrastText);
        expect(vars['--hb-bg']).toBe(palette.background.default);
        expect(vars['--hb-paper']).toBe(palette.background.paper);
        expect(vars['--hb-text']).toBe(palette.text.primary);
        expect(vars['--hb-text2']).toBe(palette.text.secondary);
        expect(vars['--hb-divider']).toBe(palette.divider);
        expect(vars['--hb-error']).toBe(palette.error.main);
      }
    }
  });
});

describe('less motion', () => {
  it('has no transition and no ripple when the system asks for less motion, and keeps them otherwise', () => {
    const still = buildTheme(null, 'light', { reduceMotion: true });
    expect(still.transitions.create('opacity')).toBe('none');
    expect(still.transitions.duration.enteringScreen).toBe(0);
    expect(still.components?.MuiButtonBase?.defaultProps?.disableRipple).toBe(true);
    const moving = buildTheme(null);
    expect(moving.transitions.create('opacity')).toContain('opacity');
    expect(moving.components?.MuiButtonBase).toBeUndefined();
  });
});

describe('plain.css', () => {
  it('defaults to the default organisation’s light colours (pages outside an organisation)', async () => {
    const { themeVars } = await import('../components/plain/theme-vars');
    const { existsSync, readFileSync } = await import('node:fs');
    // Run from the repository or from apps/web.
    const file = ['apps/web/src/components/plain/plain.css', 'src/components/plain/plain.css'].find((f) => existsSync(f))!;
    const css = readFileSync(file, 'utf8');
    const root = css.slice(css.indexOf(':root {'), css.indexOf('}', css.indexOf(':root {')));
    for (const [name, value] of Object.entries(themeVars(null, 'light'))) {
      expect(root, name).toContain(`${name}: ${value};`);
    }
  });
});
