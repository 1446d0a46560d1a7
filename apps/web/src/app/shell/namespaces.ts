/**
 * The catalogs the signed-in shell draws with (its menu, the reminders, the idle alert). The
 * signed-in routes load them with their checks (app/router.tsx), so the shell does not wait for
 * them once it has arrived.
 */
export const SHELL_NAMESPACES = ['shell', 'common', 'calendar', 'account'];
