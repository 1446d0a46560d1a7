import type { FeatureModule } from '../../lib/feature-module';

/**
 * The calendar: month, week and day views, an event's page and form, a booked appointment's
 * details and its cancellation; the dashboard's upcoming appointments. The Reminders drawer of
 * the shell shows components/reminders-panel.
 */
export const calendarModule: FeatureModule = {
  namespaces: ['calendar'],
  feature: 'calendar',
  routes: [
    { path: 'calendar', page: () => import('./components/calendar-page') },
    { path: 'calendar/:eventId', page: () => import('./components/event-page') },
    { path: 'calendar/:eventId/edit', page: () => import('./components/event-edit-page') },
    { path: 'event-details', page: () => import('./components/event-details-page') },
    { path: 'cancel-confirmation', page: () => import('./components/cancel-confirmation-page') },
  ],
  widgets: [{ id: 'upcoming-appointments', order: 25, load: () => import('./components/widgets/upcoming-appointments-widget') }],
};
