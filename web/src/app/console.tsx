import { RouterProvider } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { Live } from '../lib/live';
import { createAppRouter } from './router';

/**
 * The console of someone signed in: the router, and with it every screen. Loaded only once the
 * sign-in is known (App's lazy import), so the sign-in page does not wait for any of it.
 */
export default function Console({ live }: { live: Live }) {
  const router = useMemo(() => createAppRouter(live), [live]);
  return <RouterProvider router={router} />;
}
