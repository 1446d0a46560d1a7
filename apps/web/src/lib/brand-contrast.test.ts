import { describe, expect, it } from 'vitest';
import { brandContrast, primaryColorProblem } from '@healthbook/shared/organizations/brand-contrast';
import { brandColors, getContrastRatio, LIGHT_BACKGROUND, DARK_BACKGROUND } from './palette';

/** The server's colour rule (packages/shared) measures the colours this app's theme really derives (palette.ts). */
describe('the primary colour rule agrees with the theme', () => {
  const colours = Array.from({ length: 200 }, (_, i) => `#${((i * 2654435761) % 0xffffff).toString(16).padStart(6, '0')}`);
  colours.push('#0476d9', '#00695c', '#e91e63', '#777777', '#ffffff', '#000000', '#ffeb3b');

  it.each(colours)('%s', (colour) => {
    const figures = brandContrast(colour);
    const light = brandColors(colour, 'light');
    const dark = brandColors(colour, 'dark');
    expect(figures.link).toBeCloseTo(getContrastRatio(light.link!, LIGHT_BACKGROUND), 5);
    expect(figures.darkOnPage).toBeCloseTo(getContrastRatio(dark.primary, DARK_BACKGROUND), 5);
    // White text where the theme puts white text, with the same ratio.
    if (light.contrastText === '#fff') expect(figures.light).toBeCloseTo(getContrastRatio(light.primary, '#fff'), 5);
    if (dark.contrastText === '#fff') expect(figures.dark).toBeCloseTo(getContrastRatio(dark.primary, '#fff'), 5);
  });

  it('refuses colours text cannot read on, with the mode and the ratio', () => {
    expect(primaryColorProblem('#e91e63')).toEqual({ key: 'validation:colorContrastLight', values: { ratio: '4.4', mode: 'light', needed: '4.5' } });
    expect(primaryColorProblem('#0476d9')).toBeNull();
    expect(primaryColorProblem('#00695c')).toBeNull();
    expect(primaryColorProblem('blue')?.key).toBe('validation:colorInvalid');
  });
});
