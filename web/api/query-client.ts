import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client.ts';

/** The app's one query cache: the screens read it through React, and the routes' loaders start their reads in it. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx answer will not change by asking again (404 of another organization's page, 401 when signed out).
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      staleTime: 5_000,
      refetchOnWindowFocus: false,
    },
  },
});
