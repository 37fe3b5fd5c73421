import helmet from 'helmet';

/**
 * Strict headers on every answer, console and API alike (helmet: the maintained set, rather than
 * our own list to keep current). The Content-Security-Policy allows only the console's own
 * scripts, styles and connections; inline styles stay allowed because the component library
 * (Mantine) sets style attributes, and no inline script is ever allowed.
 */
export const securityHeaders = () =>
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The console is served over plain HTTP on loopback in development; HSTS is the ingress's call.
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'same-origin' },
  });
