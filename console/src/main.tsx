/** Entry point of the Caretaker console (docs/console.md). */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { prefetchJobPage } from './pages/job-reads.ts';
import { prefetchJobBoard } from './pages/jobs.tsx';
import { registerServiceWorker } from './pwa.ts';
import { queryClient } from './query.ts';
import './styles.css';

// The board's reads, or a job page's chunk and reads, start now, with the session's (preloaded by
// index.html), not after them.
prefetchJobBoard(queryClient, window.location);
prefetchJobPage(queryClient, window.location);
registerServiceWorker(queryClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
