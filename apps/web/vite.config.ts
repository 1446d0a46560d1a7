import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** A module of one of these packages (node_modules/<name>/…, scoped or not). */
const inPackages = (...names: string[]) => new RegExp(`node_modules[\\\\/](?:${names.map((n) => n.replace(/[/]/g, '[\\\\/]')).join('|')})[\\\\/]`);

/**
 * How the libraries are cut into files, so that a page loads a few files rather than a hundred
 * and fifty small ones, and the large libraries only on the pages that use them (issue 27 §6).
 * Each group is one file, and takes the modules its own modules import unless a group of higher
 * priority has taken them: the framework the entry needs comes first (so no group below makes the
 * sign-in page load it), then MUI's core. The charts', the calendar's and the pickers' files hold
 * their own packages only: what they share with other pages (MUI's components) stays outside, so
 * that a page without a chart or a date never loads them. The application's code, and
 * MUI's less used components, keep Rolldown's automatic split.
 */
const MUI_CORE_COMPONENTS = [
  // The shell (app bar, menu, drawers, toasts) …
  'AppBar', 'Toolbar', 'Drawer', 'Menu', 'MenuItem', 'Snackbar', 'Tooltip', 'CssBaseline', 'Divider', 'List', 'ListItem', 'ListItemButton',
  'ListItemIcon', 'ListItemText', 'ListSubheader', 'Avatar', 'Badge', 'IconButton', 'useMediaQuery',
  // (the idle-session alert is a dialog, always there)
  'Dialog', 'DialogTitle', 'DialogContent', 'DialogContentText', 'DialogActions',
  // … and what nearly every page draws (used by thirty files or more). Forms, dialogs and tables
  // come with the pages that have them.
  'Box', 'Typography', 'Button', 'Alert', 'Stack', 'Paper', 'CircularProgress', 'Link', 'Chip', 'Skeleton',
];
const CHUNK_GROUPS = [
  {
    name: 'framework',
    test: (id: string) =>
      inPackages('react', 'react-dom', 'scheduler', 'react-router', 'react-i18next', 'i18next', 'html-parse-stringify', 'void-elements', 'use-sync-external-store',
        'hoist-non-react-statics', 'react-is', 'prop-types', '@babel/runtime', 'clsx').test(id) ||
      // The colour helpers of the organisation's palette (lib/palette.ts), which the entry uses.
      /node_modules[\\/]@mui[\\/](?:system[\\/]colorManipulator|utils[\\/](?:clamp|formatMuiErrorMessage))[\\/]/.test(id),
    priority: 100,
  },
  {
    name: 'mui',
    test: new RegExp(
      `${inPackages('@mui/system', '@mui/utils', '@mui/styled-engine', '@mui/private-theming', '@emotion/[a-z-]+', 'react-transition-group', '@popperjs/core', 'stylis').source}` +
        `|node_modules[\\\\/]@mui[\\\\/]material[\\\\/](?:styles|utils|internal|transitions|${MUI_CORE_COMPONENTS.join('|')})[\\\\/]`,
    ),
    priority: 60,
  },
  // The icons: small, many, all together (about 10 KB).
  { name: 'icons', test: inPackages('@mui/icons-material'), priority: 50 },
  // Server state: every signed-in page. (Forms and zod keep the automatic split.)
  { name: 'query', test: inPackages('@tanstack/[a-z-]+'), priority: 40 },
  // The charts (journal, biometrics, assessments, operations): only the pages that chart.
  { name: 'charts', test: inPackages('@mui/x-charts', '@mui/x-internal-gestures', 'd3-[a-z-]+', 'internmap', 'flatqueue'), priority: 30, includeDependenciesRecursively: false },
  // The calendar (features/calendar).
  { name: 'fullcalendar', test: inPackages('@fullcalendar/[a-z-]+', 'preact'), priority: 20, includeDependenciesRecursively: false },
  // The date pickers, on the forms with a date. (Not what they share with the charts, nor dayjs,
  // which pages use without a picker.)
  { name: 'pickers', test: inPackages('@mui/x-date-pickers'), priority: 10, includeDependenciesRecursively: false },
];

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:8080', '/dev': 'http://127.0.0.1:8080', '/ws': { target: 'ws://127.0.0.1:8080', ws: true } },
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    // dist/.vite/manifest.json: what each page's module imports, for the JavaScript budget (check-budget.mjs).
    manifest: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: { groups: CHUNK_GROUPS },
      },
    },
  },
});
