import type { Request } from 'express';
import { crossSiteRefusal } from './csrf';

const request = (headers: Record<string, string>, host = 'studio.example.com'): Request =>
  ({
    protocol: 'https',
    get: (name: string) => (name.toLowerCase() === 'host' ? host : undefined),
    header: (name: string) => headers[name.toLowerCase()],
  }) as unknown as Request;

describe('crossSiteRefusal', () => {
  it('lets the console through from its own origin with its header', () => {
    expect(
      crossSiteRefusal(request({ origin: 'https://studio.example.com', 'x-studio-request': 'console' }), []),
    ).toBeNull();
  });

  it('refuses another origin, even with the header', () => {
    expect(
      crossSiteRefusal(request({ origin: 'https://evil.example', 'x-studio-request': 'console' }), []),
    ).toMatch(/evil\.example/);
  });

  it('accepts a configured public origin (behind a proxy that rewrites the host)', () => {
    expect(
      crossSiteRefusal(
        request({ origin: 'https://ops.example.com', 'x-studio-request': 'console' }, 'gateway:8080'),
        ['https://ops.example.com'],
      ),
    ).toBeNull();
  });

  it('refuses a form post: no console header', () => {
    expect(crossSiteRefusal(request({ origin: 'https://studio.example.com' }), [])).toMatch(
      /x-studio-request/,
    );
    expect(crossSiteRefusal(request({}), [])).toMatch(/x-studio-request/);
  });
});
