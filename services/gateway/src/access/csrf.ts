import type { Request } from 'express';

/** The header the console sends with every change; a cross-site form cannot set one. */
const CONSOLE_REQUEST_HEADER = 'x-studio-request';

/**
 * Whether a state-changing request carried by the browser's own credentials (the session cookie)
 * comes from the console itself: it names our origin (or sends none, as some clients do not) and
 * carries the console's header, which no cross-site form can add and no cross-origin script can
 * send without a CORS preflight the gateway never grants. SameSite=Lax already keeps the cookie
 * off cross-site POSTs in current browsers; this holds where it does not.
 */
export function crossSiteRefusal(req: Request, publicOrigins: readonly string[]): string | null {
  const origin = req.header('origin');
  if (origin !== undefined) {
    const own = `${req.protocol}://${req.get('host') ?? ''}`;
    if (origin !== own && !publicOrigins.includes(origin))
      return `a change from ${origin.slice(0, 200)} is refused: it is not this console's origin`;
  }
  if (req.header(CONSOLE_REQUEST_HEADER) === undefined)
    return `a change made with a session must carry the ${CONSOLE_REQUEST_HEADER} header (the console sends it)`;
  return null;
}
