import { blue, cyan, deepPurple, green, grey, indigo, orange, purple, red } from '@mui/material/colors';
import { getContrastRatio } from '@mui/system/colorManipulator';
import type { EventColor } from '@healthbook/shared/calendar';

/**
 * The specification's colour names on MUI's palette: a solid shade that stands out on the page
 * (darker in light mode, lighter in dark mode) and the text that reads on it (WCAG AA, 4.5:1).
 */
const HUES: Record<EventColor, Record<200 | 300 | 700 | 800 | 900, string>> = {
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

const WHITE = '#ffffff';
const NEAR_BLACK = '#141414';
const AA = 4.5;

export interface EventColors {
  /** The event's background (and the dot of its days). */
  main: string;
  /** Its text. */
  text: string;
}

/**
 * Light mode: the first of the dark shades that carries white text, else (orange) the 700 shade
 * with dark text. Dark mode: a light shade with dark text.
 */
export function eventColors(color: EventColor, mode: 'light' | 'dark'): EventColors {
  const hue = HUES[color] ?? grey;
  if (mode === 'dark') {
    const main = getContrastRatio(hue[300], NEAR_BLACK) >= AA ? hue[300] : hue[200];
    return { main, text: NEAR_BLACK };
  }
  const shade = ([700, 800, 900] as const).find((s) => getContrastRatio(hue[s], WHITE) >= AA);
  return shade ? { main: hue[shade], text: WHITE } : { main: hue[700], text: NEAR_BLACK };
}
