import { Suspense, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { DelayedLoader } from '../components/delayed-loader';
import { queryClient } from '../lib/query-client';
import { buildTheme } from '../lib/theme';

const defaultTheme = buildTheme(null);

/** App-wide providers; the organisation's own theme is applied by its layout. */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={defaultTheme}>
        <CssBaseline />
        <Suspense fallback={<DelayedLoader />}>{children}</Suspense>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
