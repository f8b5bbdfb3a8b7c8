/**
 * The console's app: the routes (routes.tsx, in the shell of layout.tsx) under the one TanStack
 * Query client (query.ts) that every page's data goes through.
 */
import { useEffect } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { onWrite } from './api.ts';
import { queryClient } from './query.ts';
import { AppRoutes } from './routes.tsx';

/** The app: its routes under the one TanStack Query client (query.ts) that every page's data goes through. */
export function App() {
  // After a write, the cached data of pages not on screen may be out of date: it is dropped, so
  // they load afresh when opened; the page on screen reloads what it shows itself.
  useEffect(() => onWrite(() => queryClient.removeQueries({ type: 'inactive' })), []);
  return (
    <QueryClientProvider client={queryClient}>
      <AppRoutes />
    </QueryClientProvider>
  );
}

