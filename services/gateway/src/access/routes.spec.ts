import { GatewayModule } from '../app.module';
import { declaredRoutes } from '../http/route-catalog';

/** A new route cannot be left open or unaudited by forgetting: this fails until it declares both. */
describe('every gateway route', () => {
  const routes = declaredRoutes(GatewayModule);

  it('is found (the catalogue reads the real modules)', () => {
    expect(routes.length).toBeGreaterThan(25);
    expect(routes).toContainEqual(expect.objectContaining({ method: 'GET', path: '/api/v1/stream' }));
    expect(routes).toContainEqual(
      expect.objectContaining({ method: 'GET', path: '/readyz', permission: 'operational' }),
    );
  });

  it('declares a permission', () => {
    expect(routes.filter((r) => r.permission === undefined).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('declares an audit action when it changes something', () => {
    const mutating = routes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method));
    expect(mutating.length).toBeGreaterThan(8);
    expect(mutating.filter((r) => !r.auditAction).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('is public only for signing in', () => {
    expect(
      routes
        .filter((r) => typeof r.permission === 'object' && r.permission.kind === 'public')
        .map((r) => r.path)
        .every((p) => p.startsWith('/api/v1/auth/')),
    ).toBe(true);
  });
});
