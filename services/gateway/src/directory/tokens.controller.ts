import { z } from 'zod';
import {
  CreateTokenRequestSchema,
  type CreatedToken,
  type CreateTokenRequest,
  isAdministrator,
  ApiTokenSchema,
  CreatedTokenSchema,
} from '@artemis-studio/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { DomainError } from '../domain-error';
import { Valid, Id } from '../http/validation.pipe';
import { Access } from '../access/permission';
import type { Principal } from '../access/principal';
import { CurrentPrincipal } from '../access/request-context';
import { TokenRepository } from '../access/token.repository';
import { UserRepository } from '../access/user.repository';

import { DirectoryService } from './directory.service';
import { Describe } from '../openapi/operation';

/**
 * API tokens for other tools and CI. Anyone signed in keeps their own; an administrator also
 * makes them for service accounts. The secret is shown once, in the answer to its creation.
 */
@Controller('api/v1/tokens')
export class TokensController {
  constructor(
    private readonly users: UserRepository,
    private readonly tokens: TokenRepository,
    private readonly directory: DirectoryService,
  ) {}

  @Get()
  @Describe({
    summary: 'API tokens (your own; an administrator sees all)',
    tag: 'access',
    status: 200,
    response: z.array(ApiTokenSchema),
  })
  @Access.signedIn()
  list(@CurrentPrincipal() principal: Principal) {
    return this.tokens.list(isAdministrator(principal.grants) ? null : principal.id);
  }

  @Post()
  @Describe({
    summary: 'Create an API token (its secret is in this answer only)',
    tag: 'access',
    body: CreateTokenRequestSchema,
    status: 201,
    response: CreatedTokenSchema,
  })
  @Access.signedIn()
  @Audited('token.create')
  async create(
    @Body(new Valid(CreateTokenRequestSchema, 'token')) request: CreateTokenRequest,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ): Promise<CreatedToken> {
    if (principal.kind === 'anonymous')
      throw new DomainError('invalid', 'NO_USER', 'with AUTH_MODE=none there is nobody to own a token');
    const ownerId = request.ownerId ?? principal.id;
    if (ownerId !== principal.id) {
      if (!isAdministrator(principal.grants))
        throw new DomainError(
          'forbidden',
          'FORBIDDEN',
          'only an administrator makes tokens for another account',
        );
      const owner = await this.users.byId(ownerId);
      if (owner?.kind !== 'service')
        throw new DomainError(
          'invalid',
          'NOT_A_SERVICE_ACCOUNT',
          'tokens are made for yourself or for a service account',
        );
    }
    return this.directory.addToken(ownerId, request, note);
  }

  /** Ends the token everywhere; streams opened with it close within seconds. */
  @Delete(':tokenId')
  @Describe({ summary: 'Revoke an API token', tag: 'access', status: 204 })
  @HttpCode(204)
  @Access.signedIn()
  @Audited('token.revoke')
  async revoke(
    @Param('tokenId', Id) tokenId: string,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ): Promise<void> {
    note.describe({ target: tokenId });
    const token = await this.tokens.one(tokenId);
    if (token.ownerId !== principal.id && !isAdministrator(principal.grants))
      throw new DomainError('not-found', 'TOKEN_NOT_FOUND', `no token ${tokenId}`);
    await this.directory.revokeToken(token, note);
  }
}
