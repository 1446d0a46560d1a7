import { createContext, lazy, useContext, type ComponentType, type LazyExoticComponent } from 'react';
import type { DashboardWidget } from './feature-module';

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
