import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createLive } from './lib/live';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App live={createLive()} />
  </StrictMode>,
);
