/**
 * Which frame a page is drawn in (§2 "Route rules", layout choice), decided in one place:
 * - a layout named by the route (its handle) wins;
 * - an add-user path with a client id uses the minimal layout;
 * - a client path with full access uses the full layout (the signed-in shell);
 * - other client paths use the limited layout (branding, language switch, footer);
 * - otherwise the default layout (no frame).
 */
export type LayoutName = 'full' | 'limited' | 'minimal' | 'default';

export interface LayoutInput {
  /** The layout the deepest matched route names in its handle, if any. */
  named?: LayoutName | undefined;
  /** The path, e.g. /healthbook/addUser/home. */
  pathname: string;
  /** The organisation's client id of the path, when it has one. */
  clientId: string | null;
  /** The session's access level: full, limited, or none. */
  access: 'full' | 'limited' | null;
}

export function chooseLayout({ named, pathname, clientId, access }: LayoutInput): LayoutName {
  if (named) return named;
  if (!clientId) return 'default';
  if (/^\/[^/]+\/addUser(\/|$)/.test(pathname)) return 'minimal';
  if (access === 'full') return 'full';
  return 'limited';
}

/** The layout a route names: `handle: { layout: 'limited' }` on its route object. */
export function namedLayout(matches: ReadonlyArray<{ handle?: unknown }>): LayoutName | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const layout = (matches[i]!.handle as { layout?: LayoutName } | undefined)?.layout;
    if (layout) return layout;
  }
  return undefined;
}
