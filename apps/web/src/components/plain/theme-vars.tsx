import { createContext, useContext } from 'react';
import type { ColorMode } from '../../lib/color-mode';
import { alpha, brandColors, DARK_BACKGROUND, LIGHT_BACKGROUND, LIGHT_PAPER } from '../../lib/palette';

/** The organisation's colours and the mode, as the frame around a page has them (null inside the signed-in shell, which has its own theme). */
export interface FrameTheme {
  primaryColor: string | null | undefined;
  mode: ColorMode;
}

export const FrameThemeContext = createContext<FrameTheme | null>(null);
export const useFrameTheme = () => useContext(FrameThemeContext);

const LIGHT = {
  text: 'rgba(0, 0, 0, 0.87)',
  text2: 'rgba(0, 0, 0, 0.6)',
  divider: 'rgba(0, 0, 0, 0.12)',
  error: '#d32f2f',
  active: 'rgba(0, 0, 0, 0.54)',
  hover: 'rgba(0, 0, 0, 0.04)',
  selected: 'rgba(0, 0, 0, 0.08)',
  outline: 'rgba(0, 0, 0, 0.23)',
  disabledBg: 'rgba(0, 0, 0, 0.12)',
  disabled: 'rgba(0, 0, 0, 0.26)',
  bg: LIGHT_BACKGROUND,
  paper: LIGHT_PAPER,
  hoverOpacity: 0.04,
};
const DARK: typeof LIGHT = {
  text: '#fff',
  text2: 'rgba(255, 255, 255, 0.7)',
  divider: 'rgba(255, 255, 255, 0.12)',
  error: '#f44336',
  active: '#fff',
  hover: 'rgba(255, 255, 255, 0.08)',
  selected: 'rgba(255, 255, 255, 0.16)',
  outline: 'rgba(255, 255, 255, 0.23)',
  disabledBg: 'rgba(255, 255, 255, 0.12)',
  disabled: 'rgba(255, 255, 255, 0.3)',
  bg: DARK_BACKGROUND,
  paper: DARK_BACKGROUND,
  hoverOpacity: 0.08,
};

/** The CSS variables of components/plain/plain.css for an organisation's colour and a mode: the same values the MUI theme (lib/theme.ts) has. */
export function themeVars(primaryColor: string | null | undefined, mode: ColorMode): Record<string, string> {
  const { primary, primaryDark, contrastText, link } = brandColors(primaryColor, mode);
  const p = mode === 'dark' ? DARK : LIGHT;
  const linkColor = link ?? primary;
  return {
    '--hb-bg': p.bg,
    '--hb-paper': p.paper,
    '--hb-text': p.text,
    '--hb-text2': p.text2,
    '--hb-divider': p.divider,
    '--hb-error': p.error,
    '--hb-active': p.active,
    '--hb-hover': p.hover,
    '--hb-selected': p.selected,
    '--hb-outline': p.outline,
    '--hb-disabled-bg': p.disabledBg,
    '--hb-disabled': p.disabled,
    '--hb-primary': primary,
    '--hb-primary-dark': primaryDark,
    '--hb-on-primary': contrastText,
    '--hb-primary-hover': alpha(primary, p.hoverOpacity),
    '--hb-active-hover': alpha(p.active, p.hoverOpacity),
    '--hb-link': linkColor,
    '--hb-link-line': alpha(linkColor, 0.4),
    '--hb-focus': linkColor,
  };
}

/** Sets the variables on the document (body background, text colour) while the frame is shown. */
export function ThemeVars({ primaryColor, mode }: FrameTheme) {
  const vars = themeVars(primaryColor, mode);
  const css = `:root{${Object.entries(vars)
    .map(([k, v]) => `${k}:${v}`)
    .join(';')}}`;
  return <style>{css}</style>;
}
