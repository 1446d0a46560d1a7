/**
 * Whether text on an organisation's primary colour reads at WCAG AA (4.5:1) in the light and the
 * dark theme, following the colours the web app derives from it (apps/web/src/lib/palette.ts):
 * - light: the colour itself, with white text or MUI's dark text (rgba(0,0,0,0.87)), whichever
 *   reads (white when it reaches 4.5:1); links in a shade of it darkened until it reads on the
 *   page background;
 * - dark: the colour lightened until it reads on the dark page, with white or dark text likewise.
 * The server refuses a colour this rule refuses, and the page says why with the same figures.
 * The colour maths are MUI's (colorManipulator), so both sides agree with the theme.
 */
export const WCAG_AA = 4.5;
export const BRAND_LIGHT_BACKGROUND = '#f5f7fa';
export const BRAND_DARK_BACKGROUND = '#121212';
const DARK_TEXT_ALPHA = 0.87;

export const HEX_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

type Rgb = [number, number, number];

function parse(hex: string): Rgb {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** MUI's getLuminance. */
function luminance([r, g, b]: Rgb): number {
  const c = [r, g, b].map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return Number((0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]).toFixed(3));
}

export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** MUI's darken and lighten: each step recomposes rgb() with whole channel values. */
const darken = (c: Rgb, k: number): Rgb => c.map((v) => Math.trunc(v * (1 - k))) as Rgb;
const lighten = (c: Rgb, k: number): Rgb => c.map((v) => Math.trunc(v + (255 - v) * k)) as Rgb;
/** Dark text (black at 87 %) as it shows on the colour. */
const darkTextOn = (bg: Rgb): Rgb => bg.map((v) => v * (1 - DARK_TEXT_ALPHA)) as Rgb;
const WHITE: Rgb = [255, 255, 255];

/** The dark theme's primary: lightened until it reads on the dark page (as palette.ts brightenedFor). */
function brightened(c: Rgb, background: Rgb): Rgb {
  let out = c;
  for (let i = 0; i < 10 && contrastRatio(out, background) < 4.6; i++) out = lighten(out, 0.1);
  return out;
}

/** The light theme's link shade: darkened until it reads on the page (as palette.ts readableOn). */
function readable(c: Rgb, background: Rgb): Rgb {
  let out = c;
  for (let i = 0; i < 10 && contrastRatio(out, background) < 4.6; i++) out = darken(out, 0.1);
  return out;
}

/** The contrast of the text the theme puts on a colour: white when it reads, else dark text. */
function textContrast(bg: Rgb): number {
  const white = contrastRatio(bg, WHITE);
  return white >= WCAG_AA ? white : contrastRatio(bg, darkTextOn(bg));
}

export interface BrandContrast {
  /** Text on the colour, light theme. */
  light: number;
  /** Text on the colour as the dark theme shows it. */
  dark: number;
  /** Links and outlined buttons on the light page. */
  link: number;
  /** The dark theme's colour on the dark page. */
  darkOnPage: number;
}

export function brandContrast(color: string): BrandContrast {
  const c = parse(color);
  const light = parse(BRAND_LIGHT_BACKGROUND);
  const dark = parse(BRAND_DARK_BACKGROUND);
  const darkPrimary = brightened(c, dark);
  return {
    light: textContrast(c),
    dark: textContrast(darkPrimary),
    link: contrastRatio(readable(c, light), light),
    darkOnPage: contrastRatio(darkPrimary, dark),
  };
}

export interface ColorProblem {
  /** A `validation` catalog key. */
  key: string;
  /** The figures it names: the mode and the ratio reached (one decimal, rounded down). */
  values: { ratio: string; mode: 'light' | 'dark'; needed: string };
}

const floor1 = (n: number) => (Math.floor(n * 10) / 10).toFixed(1);

/** Why a primary colour is refused (text on it under WCAG AA in one mode), or null when it reads in both. */
export function primaryColorProblem(color: string): ColorProblem | null {
  if (!HEX_COLOR_PATTERN.test(color)) return { key: 'validation:colorInvalid', values: { ratio: '', mode: 'light', needed: WCAG_AA.toFixed(1) } };
  const figures = brandContrast(color);
  const needed = WCAG_AA.toFixed(1);
  if (figures.light < WCAG_AA) return { key: 'validation:colorContrastLight', values: { ratio: floor1(figures.light), mode: 'light', needed } };
  if (figures.link < WCAG_AA) return { key: 'validation:colorContrastLink', values: { ratio: floor1(figures.link), mode: 'light', needed } };
  if (figures.dark < WCAG_AA || figures.darkOnPage < WCAG_AA) {
    return { key: 'validation:colorContrastDark', values: { ratio: floor1(Math.min(figures.dark, figures.darkOnPage)), mode: 'dark', needed } };
  }
  return null;
}
