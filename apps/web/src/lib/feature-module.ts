import type { ComponentType } from 'react';
import type { FeatureKey } from '@healthbook/shared/features';

/** What a dashboard card's data depends on. */
export interface DashboardWidgetContext {
  /** The language the texts come in (i18n's resolved language). */
  language: string;
  userId: number;
}

/**
 * A dashboard card's module: the card, and what loads the data it draws (into the query
 * client), so the dashboard draws every card once, with its data, at its final size.
 */
export interface DashboardWidgetModule {
  default: ComponentType;
  prefetch?: (context: DashboardWidgetContext) => Promise<unknown>;
}

/** A card of the dashboard, shown only while its feature is active. */
export interface DashboardWidget {
  id: string;
  /** Smaller first. */
  order: number;
  /** Loaded with the dashboard, not before. */
  load: () => Promise<DashboardWidgetModule>;
  /** About one's own health record (first records, recent ones): not on staff's dashboards (lib/roles.ts isStaff). */
  patientsOnly?: boolean;
  /** Its feature's catalogs (FeatureModule.namespaces), loaded with it. */
  namespaces?: readonly string[];
}

/** Checks a page needs beyond a full sign-in and an active feature (implemented in app/guards.ts). */
export type RouteGuardName = 'mfaRegisterGuard' | 'qrGoogleGuard' | 'adminGuard' | 'superadminGuard' | 'providerGuard' | 'chatStaffGuard';

/** A page of a feature, under /{clientId}/, drawn in the signed-in shell. */
export interface FeatureRoute {
  path: string;
  /** The page module (its default export), loaded when first visited. */
  page: () => Promise<{ default: ComponentType }>;
  guard?: RouteGuardName;
}

/**
 * What a feature brings to the signed-in hub, registered once in app/feature-modules.ts: its
 * pages (each redirects to the dashboard unless the feature is active for the member's
 * organisation) and its dashboard widgets. The menu item, the status switch and the 403 of its
 * API follow from the feature's entry in the shared catalogue (packages/shared/src/features.ts).
 */
export interface FeatureModule {
  /** The catalogue feature governing these pages and widgets; none for areas always on (account settings). */
  feature?: FeatureKey;
  /**
   * The catalogs (i18n namespaces) its pages and cards draw with, loaded beside the page's module
   * rather than after it (a page would otherwise wait for them once drawn: one more round trip).
   */
  namespaces?: readonly string[];
  routes?: FeatureRoute[];
  widgets?: DashboardWidget[];
}
