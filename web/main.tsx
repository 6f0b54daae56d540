import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { meQuery } from './api/queries.ts';
import { queryClient } from './api/query-client.ts';
import { router } from './routes.tsx';
import { ToastProvider } from './ui/toast.tsx';
import { TooltipProvider } from './ui/tooltip.tsx';
// The reader's stylesheet first (the colour and type foundation), then the kit's tokens and look, then the screens'.
import '../src/features/reader/assets/reader.css';
import './ui/tokens.css';
import './ui/kit.css';
import './app.css';

// Every screen waits for who is signed in: asked now, while the screen's code loads, rather than after it (the
// page preloads the same URL, src/features/web-app/first-reads.ts, and this fetch takes its answer).
void queryClient.prefetchQuery(meQuery());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </TooltipProvider>
    </QueryClientProvider>
  </StrictMode>,
);
