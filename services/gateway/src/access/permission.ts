import type { Role } from '@artemis-studio/contracts';
import { SetMetadata } from '@nestjs/common';

/**
 * What a route needs, declared on the route itself. A route with no declaration is refused at
 * run time and fails `routes.spec.ts`, so a new route cannot be left open by forgetting.
 */
export type Permission =
  /** Reachable before sign-in: the sign-in routes only. */
  | { kind: 'public' }
  /** Any signed-in principal; what it reads is narrowed to its grants by the handler. */
  | { kind: 'signed-in' }
  /**
   * At least `role` on one cluster, named by the route's `:id`, the query's `clusterId`, or for a
   * registration the body's `name`.
   */
  | { kind: 'cluster'; role: Role; from: 'param' | 'query' | 'body-name' }
  /** Admin on every cluster: settings, users, tokens, grants, the audit trail. */
  | { kind: 'administrator' };

export const PERMISSION = 'studio:permission';

export const Access = {
  public: () => SetMetadata(PERMISSION, { kind: 'public' } satisfies Permission),
  signedIn: () => SetMetadata(PERMISSION, { kind: 'signed-in' } satisfies Permission),
  cluster: (role: Role, from: 'param' | 'query' | 'body-name' = 'param') =>
    SetMetadata(PERMISSION, { kind: 'cluster', role, from } satisfies Permission),
  administrator: () => SetMetadata(PERMISSION, { kind: 'administrator' } satisfies Permission),
};
