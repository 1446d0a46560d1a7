import { createTheme, type Theme } from '@mui/material/styles';
import { elGR } from '@mui/material/locale';
import { brandColors, CONTRAST_THRESHOLD, LIGHT_BACKGROUND, LIGHT_PAPER } from './palette';

export { readableOn, brightenedFor } from './palette';

/** No transition and no ripple: what a user who asked their system for less motion gets (WCAG 2.3.3). */
const STILL = {
  transitions: {
    create: () => 'none',
    duration: { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 },
  },
} as const;

/**
 * The organisation's MUI theme: its primary colour (the spec's #0476d9 when it has none); the
 * colour rules are lib/palette.ts's. `reduceMotion` (the system's prefers-reduced-motion): dialogs,
 * menus and drawers appear without sliding or fading, and buttons without a ripple. `language`:
 * MUI's own words (an Autocomplete's "Open" and "Clear", a Pagination's labels) in Greek for 'el'.
 */
export function buildTheme(primaryColor: string | null | undefined, mode: 'light' | 'dark' = 'light', options: { reduceMotion?: boolean; language?: string } = {}): Theme {
  const { primary, link: linkColor } = brandColors(primaryColor, mode);
  const focusOutline = { '&.Mui-focusVisible': { outline: `3px solid ${linkColor ?? primary}`, outlineOffset: 2 } };
  return createTheme({
    palette: {
      mode,
      primary: { main: primary },
      // White or dark text on the organisation's colour, whichever reads at WCAG AA (4.5:1).
      contrastThreshold: CONTRAST_THRESHOLD,
      background: mode === 'light' ? { default: LIGHT_BACKGROUND, paper: LIGHT_PAPER } : {},
    },
    ...(options.reduceMotion ? STILL : {}),
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: '"Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
      h1: { fontSize: '1.75rem', fontWeight: 700 },
      h2: { fontSize: '1.25rem', fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      ...(options.reduceMotion ? { MuiButtonBase: { defaultProps: { disableRipple: true } } } : {}),
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
  }, options.language === 'el' ? elGR : {});
}
