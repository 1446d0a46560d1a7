import { createTheme, darken, getContrastRatio, lighten, type Theme } from '@mui/material/styles';
import { DEFAULT_PRIMARY_COLOR } from '@healthbook/shared/constants';

/** The organisation's theme: its primary colour (the spec's #0476d9 when it has none). */
const LIGHT_BACKGROUND = '#f5f7fa';

/** An organisation's colour, darkened until text in it reads on the page background (WCAG AA, 4.5:1). */
export function readableOn(color: string, background: string): string {
  let text = color;
  for (let i = 0; i < 10 && getContrastRatio(text, background) < 4.6; i++) text = darken(text, 0.1);
  return text;
}

/** In dark mode the organisation's colour is lightened until it reads on the dark page (WCAG AA). */
export function brightenedFor(color: string, background: string): string {
  let c = color;
  for (let i = 0; i < 10 && getContrastRatio(c, background) < 4.6; i++) c = lighten(c, 0.1);
  return c;
}

const DARK_BACKGROUND = '#121212';

export function buildTheme(primaryColor: string | null | undefined, mode: 'light' | 'dark' = 'light'): Theme {
  const brand = primaryColor ?? DEFAULT_PRIMARY_COLOR;
  const primary = mode === 'dark' ? brightenedFor(brand, DARK_BACKGROUND) : brand;
  const linkColor = mode === 'light' ? readableOn(primary, LIGHT_BACKGROUND) : undefined;
  const focusOutline = { '&.Mui-focusVisible': { outline: `3px solid ${linkColor ?? primary}`, outlineOffset: 2 } };
  return createTheme({
    palette: {
      mode,
      primary: { main: primary },
      // White or dark text on the organisation's colour, whichever reads at WCAG AA (4.5:1).
      contrastThreshold: 4.5,
      background: mode === 'light' ? { default: LIGHT_BACKGROUND, paper: '#ffffff' } : {},
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: '"Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
      h1: { fontSize: '1.75rem', fontWeight: 700 },
      h2: { fontSize: '1.25rem', fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      // Buttons show keyboard focus as a steady outline, not a pulsating ripple: always visible,
      // never moving, and it leaves the text's contrast alone (WCAG 2.4.7, 1.4.3).
      MuiButton: {
        defaultProps: { disableElevation: true, disableFocusRipple: true },
        styleOverrides: {
          root: ({ ownerState }) => ({
            ...focusOutline,
            // Text and outlined buttons in the organisation's colour sit on the page background too: in a shade that reads there.
            ...(linkColor && ownerState.color === 'primary' && ownerState.variant !== 'contained' ? { color: linkColor } : {}),
          }),
        },
      },
      MuiIconButton: { defaultProps: { disableFocusRipple: true }, styleOverrides: { root: focusOutline } },
      // Underlined, not told apart by colour alone: links sit in and beside running text (WCAG 1.4.1, axe link-in-text-block).
      MuiLink: { defaultProps: { underline: 'always', ...(linkColor ? { color: linkColor } : {}) } },
    },
  });
}
