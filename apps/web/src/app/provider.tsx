import { Suspense, type ReactNode } from 'react';
import '../components/plain/plain.css';
import { DelayedLoader } from '../components/delayed-loader';

/**
 * App-wide: the base styles and the loading view. MUI's theme and the query client are not here:
 * each page that uses them gets them from lazyPage (lib/lazy.ts, lib/mui-page.tsx), the signed-in
 * shell has its own, so the sign-in page carries neither.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return <Suspense fallback={<DelayedLoader />}>{children}</Suspense>;
}
