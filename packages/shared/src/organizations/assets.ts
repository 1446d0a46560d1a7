/**
 * An organisation's logo and favicon: PNG, JPEG or WebP (told by their bytes), or SVG once
 * sanitised on the server (refused when it carries script or anything active). Sizes and pixel
 * dimensions are bounded so that every page's header and tab stay light.
 */
export const ORGANIZATION_ASSET_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'] as const;
export const ORGANIZATION_ASSET_LIMITS = {
  logo: { maxBytes: 512 * 1024, maxPixels: 2048, minPixels: 16 },
  favicon: { maxBytes: 128 * 1024, maxPixels: 512, minPixels: 16 },
} as const;
/** The file input's accept list. */
export const ORGANIZATION_ASSET_ACCEPT = '.png,.jpg,.jpeg,.webp,.svg,image/png,image/jpeg,image/webp,image/svg+xml';
