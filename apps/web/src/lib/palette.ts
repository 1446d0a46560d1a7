import { alpha, darken, getContrastRatio, lighten } from '@mui/system/colorManipulator';
import { DEFAULT_PRIMARY_COLOR } from '@healthbook/shared/constants';
import type { ColorMode } from './color-mode';

/**
 * The organisation's colours, in one place: the MUI theme (lib/theme.ts) and the plain pages'
 * CSS variables (components/plain/theme-vars.tsx) both take them from here. Colour maths only
 * (@mui/system/colorManipulator): no emotion, no MUI theme, so the sign-in page stays light.
 */
export const LIGHT_BACKGROUND = '#f5f7fa';
export const LIGHT_PAPER = '#ffffff';
export const DARK_BACKGROUND = '#121212';
/** White or dark text on the organisation's colour, whichever reads at WCAG AA (4.5:1). */
export const CONTRAST_THRESHOLD = 4.5;
/** MUI's tonal offset for the darker shade (hover of contained buttons). */
const DARK_SHADE = 0.3;

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

export interface BrandColors {
  /** The primary colour of the mode (brightened on the dark page). */
  primary: string;
  /** Its darker shade (contained buttons on hover). */
  primaryDark: string;
  /** The text on it: white or dark, whichever reads (MUI's getContrastText with the threshold above). */
  contrastText: string;
  /** Links, text and outlined buttons in the organisation's colour on the light page; in dark mode, undefined (the primary colour). */
  link: string | undefined;
}

export function brandColors(primaryColor: string | null | undefined, mode: ColorMode = 'light'): BrandColors {
  const brand = primaryColor ?? DEFAULT_PRIMARY_COLOR;
  const primary = mode === 'dark' ? brightenedFor(brand, DARK_BACKGROUND) : brand;
  return {
    primary,
    primaryDark: darken(primary, DARK_SHADE),
    contrastText: getContrastRatio(primary, '#fff') >= CONTRAST_THRESHOLD ? '#fff' : 'rgba(0, 0, 0, 0.87)',
    link: mode === 'light' ? readableOn(primary, LIGHT_BACKGROUND) : undefined,
  };
}

export { alpha, getContrastRatio };
