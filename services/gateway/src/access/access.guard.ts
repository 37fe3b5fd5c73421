import { OPERATIONAL_ENDPOINT } from '@artemis-studio/platform';
import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { z } from 'zod';
import { ClusterRepository } from '../clusters/cluster.repository';
import { DomainError } from '../domain-error';
import { GATEWAY_CONFIG, type AccessConfig, type GatewayConfig } from '../gateway.config';
import { ACCESS_REFUSALS, type AccessRefusals } from './access-refusals';
import { Authenticator } from './authenticator';
import { crossSiteRefusal } from './csrf';
import { atLeast, isAdministrator } from '@artemis-studio/contracts';
import { PERMISSION, type Permission } from './permission';
import { roleOfPrincipal, type Principal } from './principal';
import { MUTATING_METHODS, type StudioRequest } from './request-context';

const isUuid = (value: unknown): value is string => z.uuid().safeParse(value).success;

/**
 * Every request passes here first (a global guard): who it is (401 if nobody), whether a change
 * with a session cookie really comes from the console (403), and whether the principal holds the
 * permission the route declares (403). A route that declares none is refused: forgetting is closed.
 * A refused change is written to the audit trail; a request without credentials is not (anyone
 * could fill the trail with those).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger('Access');
  private readonly access: AccessConfig;

  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
    private readonly clusters: ClusterRepository,
    @Inject(ACCESS_REFUSALS) private readonly refusals: AccessRefusals,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.access = config.access;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(OPERATIONAL_ENDPOINT, targets)) return true;
    const req = context.switchToHttp().getRequest<StudioRequest>();
    const permission = this.reflector.getAllAndOverride<Permission | undefined>(PERMISSION, targets);
    if (!permission) {
      this.logger.error(`${req.method} ${req.route?.path ?? req.path} declares no permission: refused`);
      throw new DomainError('forbidden', 'NO_PERMISSION_DECLARED', 'this route declares no permission');
    }
    const mutating = MUTATING_METHODS.has(req.method);
    if (permission.kind === 'public') {
      // Sign-in itself: a cross-site form must not sign a victim in as the attacker.
      if (mutating) this.refuseCrossSite(req);
      return true;
    }
    const principal = await this.authenticator.authenticate(req);
    if (!principal)
      throw new DomainError('unauthenticated', 'UNAUTHENTICATED', 'sign in, or send an API token');
    req.principal = principal;
    try {
      // A token is sent on purpose by its holder; a cookie (or no sign-in at all) by any page.
      if (mutating && principal.via !== 'token') this.refuseCrossSite(req);
      await this.authorize(permission, principal, req);
    } catch (err) {
      if (mutating && err instanceof DomainError && err.kind === 'forbidden')
        await this.refusals.refused(context, req, err);
      throw err;
    }
    return true;
  }

  private refuseCrossSite(req: StudioRequest): void {
    const refusal = crossSiteRefusal(req, this.access.publicOrigins);
    if (refusal) throw new DomainError('forbidden', 'CROSS_SITE_REFUSED', refusal);
  }

  private async authorize(permission: Permission, principal: Principal, req: StudioRequest): Promise<void> {
    switch (permission.kind) {
      case 'signed-in':
        return;
      case 'administrator':
        if (!isAdministrator(principal.grants))
          throw new DomainError('forbidden', 'FORBIDDEN', 'this needs the admin role on every cluster');
        req.roleUsed = 'admin';
        return;
      case 'cluster':
        return this.authorizeCluster(permission, principal, req);
      default:
        throw new DomainError('forbidden', 'FORBIDDEN', 'refused');
    }
  }

  private async authorizeCluster(
    permission: Extract<Permission, { kind: 'cluster' }>,
    principal: Principal,
    req: StudioRequest,
  ): Promise<void> {
    const body = req.body as { name?: unknown } | undefined;
    const names: string[] = [];
    if (permission.from === 'body-name') {
      if (typeof body?.name === 'string') names.push(body.name.trim());
      // Without a name the request is invalid anyway; only someone who may register anywhere learns that.
      else if (!principal.grants.some((g) => atLeast(g.role, permission.role)))
        throw forbidden(permission.role, 'any cluster');
    } else {
      const id = permission.from === 'param' ? req.params.id : req.query.clusterId;
      // A malformed id is the handler's 400; an unknown one its 404.
      if (!isUuid(id)) return;
      const name = await this.clusters.nameOf(id);
      if (name === null) return;
      req.cluster = { id, name };
      names.push(name);
      // A rename must land inside what the principal may administer, too.
      if (req.method === 'PATCH' && typeof body?.name === 'string') names.push(body.name.trim());
    }
    let used = null;
    for (const name of names) {
      const role = roleOfPrincipal(principal, name);
      if (!atLeast(role, permission.role)) throw forbidden(permission.role, `cluster '${name}'`);
      used = role;
    }
    req.roleUsed = used;
  }
}

const forbidden = (role: string, where: string) =>
  new DomainError('forbidden', 'FORBIDDEN', `this needs the ${role} role on ${where}`);
