import type { ComponentType, ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider, type Theme } from '@mui/material/styles';
import { useFrameTheme } from '../components/plain/theme-vars';
import type { ColorMode } from './color-mode';
import { queryClient } from './query-client';
import { buildTheme } from './theme';

/**
 * What every page that uses MUI runs in, loaded with the page by lazyPage (lib/lazy.ts), so that
 * neither MUI nor the query client is on the sign-in page: the query client, and, in the frame of
 * the public pages (app/layouts/page-frame.tsx), the organisation's MUI theme (lib/theme.ts) with
 * CssBaseline. In the signed-in shell, which has its own theme, the shell's theme stays.
 */
const themes = new Map<string, Theme>();
function themeFor(primaryColor: string | null | undefined, mode: ColorMode): Theme {
  const key = `${primaryColor ?? ''}|${mode}`;
  let theme = themes.get(key);
  if (!theme) themes.set(key, (theme = buildTheme(primaryColor, mode)));
  return theme;
}

export function MuiPage({ children }: { children: ReactNode }) {
  const frame = useFrameTheme();
  return (
    <QueryClientProvider client={queryClient}>
      {frame ? (
        <ThemeProvider theme={themeFor(frame.primaryColor, frame.mode)}>
          <CssBaseline />
          {children}
        </ThemeProvider>
      ) : (
        children
      )}
    </QueryClientProvider>
  );
}

/** The page component inside MuiPage. */
export function withMuiPage(Page: ComponentType): ComponentType {
  function MuiThemedPage() {
    return (
      <MuiPage>
        <Page />
      </MuiPage>
    );
  }
  MuiThemedPage.displayName = `MuiPage(${Page.displayName ?? Page.name})`;
  return MuiThemedPage;
}
