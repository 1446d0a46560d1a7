import { blue, cyan, deepPurple, green, grey, indigo, orange, purple, red } from '@mui/material/colors';
import { getContrastRatio } from '@mui/system/colorManipulator';
import type { EventColor } from '@healthbook/shared/calendar';

/**
 * The specification's colour names on MUI's palette: a solid shade that stands out on the page
 * (darker in light mode, lighter in dark mode) and the text that reads on it (WCAG AA, 4.5:1).
 */
const HUES: Record<EventColor, { 300: string; 700: string }> = {
  blue,
  indigo,
  'deep-purple': deepPurple,
  cyan,
  green,
  orange,
  grey,
  red,
  violet: purple,
};

const LIGHT_TEXT = '#ffffff';
const DARK_TEXT = 'rgba(0, 0, 0, 0.87)';
const DARK_TEXT_SOLID = '#212121';

export interface EventColors {
  /** The event's background (and the dot of its days). */
  main: string;
  /** Its text. */
  text: string;
}

export function eventColors(color: EventColor, mode: 'light' | 'dark'): EventColors {
  const hue = HUES[color] ?? grey;
  const main = mode === 'light' ? hue[700] : hue[300];
  return { main, text: getContrastRatio(main, LIGHT_TEXT) >= 4.5 ? LIGHT_TEXT : mode === 'light' ? DARK_TEXT_SOLID : DARK_TEXT };
}
