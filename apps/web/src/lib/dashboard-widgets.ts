import { createContext, lazy, useContext, type ComponentType, type LazyExoticComponent } from 'react';
import type { DashboardWidget, DashboardWidgetContext } from './feature-module';
import { i18n } from './i18n';

/** The widgets of the features the member has active, in order (provided by the shell). */
export const DashboardWidgetsContext = createContext<readonly DashboardWidget[]>([]);

export const useDashboardWidgets = () => useContext(DashboardWidgetsContext);

const components = new Map<string, LazyExoticComponent<ComponentType>>();
/** A widget's component, loaded once (with the dashboard, not before). */
export function widgetComponent(widget: DashboardWidget): LazyExoticComponent<ComponentType> {
  let component = components.get(widget.id);
  if (!component) {
    component = lazy(widget.load);
    components.set(widget.id, component);
  }
  return component;
}

const ready = new Map<string, Promise<void>>();
/**
 * Resolves when every widget's module, its catalogs and the data it draws are in (a failed load resolves
 * too: the widget shows its own error). The dashboard waits for it (React's `use`) to draw all
 * the cards at once at their final size, so that no card moves another as it arrives (issue 27
 * §6: layout shift). One promise per set of widgets, language and user, kept for later visits.
 */
export function widgetsReady(widgets: readonly DashboardWidget[], context: DashboardWidgetContext): Promise<void> {
  const key = [context.language, context.userId, ...widgets.map((w) => w.id)].join('|');
  let promise = ready.get(key);
  if (!promise) {
    const texts = [...new Set(widgets.flatMap((w) => w.namespaces ?? []))];
    promise = Promise.all([
      ...widgets.map((w) => w.load().then((m) => m.prefetch?.(context)).catch(() => undefined)),
      i18n.loadNamespaces(texts).catch(() => undefined),
    ]).then(() => undefined);
    ready.set(key, promise);
  }
  return promise;
}
