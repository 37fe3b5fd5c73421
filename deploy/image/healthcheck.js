// The image's HEALTHCHECK, run with the service's own Node.js (the image has no curl): healthy
// when the service says it is ready on its operational port (OPERATIONAL_PORT, else PORT, else
// the service's default). Exits 0 when ready, 1 otherwise, within 3 s.
const DEFAULT_PORTS = { gateway: 8080, scraper: 8081, notifier: 8082, 'event-store': 8083 };
const port = process.env.OPERATIONAL_PORT || process.env.PORT || DEFAULT_PORTS[process.env.SERVICE] || 8080;
fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(3000) }).then(
  (response) => process.exit(response.ok ? 0 : 1),
  () => process.exit(1),
);
