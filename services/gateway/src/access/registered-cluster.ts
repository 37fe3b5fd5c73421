import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { z } from 'zod';
import { clusterNotFound, DomainError } from '../domain-error';
import type { StudioRequest } from './request-context';

/** A registered cluster, as the access guard found it under the route's cluster id. */
export interface RegisteredCluster {
  id: string;
  name: string;
}

/**
 * `@Cluster() cluster: RegisteredCluster` on a route that declares `Access.cluster(role)`: the
 * cluster the guard resolved (and authorised the caller on), so the handler looks nothing up
 * again. An id that is no UUID is the request's 400, one registered nowhere its 404.
 */
export const Cluster = createParamDecorator((_: unknown, ctx: ExecutionContext): RegisteredCluster => {
  const req = ctx.switchToHttp().getRequest<StudioRequest>();
  if (req.cluster) return req.cluster;
  const id: unknown = req.params.id ?? req.query.clusterId;
  if (typeof id !== 'string' || !z.uuid().safeParse(id).success)
    throw new DomainError(
      'invalid',
      'INVALID_ID',
      `'${String(id).slice(0, 64)}' is not a cluster id (a UUID)`,
    );
  throw clusterNotFound(id);
});
