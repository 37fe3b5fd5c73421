import { OPERATIONAL_ENDPOINT } from '@artemis-studio/platform';
import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { AUDIT_ACTION } from '../audit/audit-note';
import { PERMISSION, type Permission } from '../access/permission';
import { OPERATION, type Operation } from '../openapi/operation';

export interface DeclaredRoute {
  method: string;
  /** As Express sees it: `/api/v1/clusters/:id`. */
  path: string;
  permission: Permission | 'operational' | undefined;
  auditAction: string | undefined;
  /** Its OpenAPI description (`@Describe`). */
  operation: Operation | undefined;
}

const join = (...parts: (string | string[] | undefined)[]) =>
  `/${parts
    .map((p) => (Array.isArray(p) ? p[0] : p) ?? '')
    .join('/')
    .split('/')
    .filter(Boolean)
    .join('/')}`;

function controllersOf(root: unknown, seen = new Set<unknown>()): Type[] {
  if (!root || seen.has(root)) return [];
  seen.add(root);
  const dynamic = root as { module?: Type; controllers?: Type[]; imports?: unknown[] };
  const module = dynamic.module ?? (root as Type);
  const own: Type[] = [
    ...((Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) as Type[] | undefined) ?? []),
    ...(dynamic.controllers ?? []),
  ];
  const imports: unknown[] = [
    ...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, module) as unknown[] | undefined) ?? []),
    ...(dynamic.imports ?? []),
  ];
  return [...own, ...imports.flatMap((i) => controllersOf(i, seen))];
}

/**
 * Every route the module serves, read from the decorators the way Nest reads them, with the
 * permission, audit action and description it declares: what the access tests and the OpenAPI
 * document are generated from.
 */
export function declaredRoutes(rootModule: unknown): DeclaredRoute[] {
  return routesOf(controllersOf(rootModule));
}

/** The routes of these controllers (a running app's, from Nest's DiscoveryService). */
export function routesOf(controllers: Iterable<Type>): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  for (const controller of new Set(controllers)) {
    const base = Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined;
    const proto = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const handler = proto[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (path === undefined || method === undefined) continue;
      const operational =
        Reflect.getMetadata(OPERATIONAL_ENDPOINT, handler) ??
        Reflect.getMetadata(OPERATIONAL_ENDPOINT, controller);
      routes.push({
        method: RequestMethod[method],
        path: join(base, path),
        permission: operational
          ? 'operational'
          : ((Reflect.getMetadata(PERMISSION, handler) ?? Reflect.getMetadata(PERMISSION, controller)) as
              Permission | undefined),
        auditAction: Reflect.getMetadata(AUDIT_ACTION, handler) as string | undefined,
        operation: Reflect.getMetadata(OPERATION, handler) as Operation | undefined,
      });
    }
  }
  return routes;
}
