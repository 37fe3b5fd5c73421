import { GatewayModule } from '../app.module';
import { declaredRoutes } from '../http/route-catalog';
import { API_VERSION, openApiDocument } from './openapi-document';

describe('the OpenAPI document', () => {
  const routes = declaredRoutes(GatewayModule).filter((r) => r.permission !== 'operational');
  const document = openApiDocument(routes, API_VERSION) as {
    paths: Record<
      string,
      Record<string, { security?: unknown[]; description: string; parameters: { name: string }[] }>
    >;
  };

  it('describes every route the gateway serves, and nothing it does not', () => {
    const served = routes.map((r) => `${r.method} ${r.path}`).sort();
    expect(routes.filter((r) => !r.operation).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    const described = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(described.sort()).toEqual(served);
  });

  it('says what each route needs, and leaves only the sign-in routes open', () => {
    const open = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.security?.length === 0)
        .map(([method]) => `${method} ${path}`),
    );
    expect(open.every((o) => o.includes('/api/v1/auth/'))).toBe(true);
    expect(document.paths['/api/v1/clusters/{id}']!.delete!.description).toBe(
      'Needs: admin on the cluster. Audited as `cluster.delete`.',
    );
  });

  it('lists query parameters from the contracts', () => {
    const names = document.paths['/api/v1/clusters/{id}/queues']!.get!.parameters.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['id', 'page', 'pageSize', 'sort', 'search']));
  });
});
