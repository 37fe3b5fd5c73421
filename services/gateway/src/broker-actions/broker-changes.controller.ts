import {
  CreateAddressRequestSchema,
  CreateQueueRequestSchema,
  DeleteAddressQuerySchema,
  SendMessageRequestSchema,
  ownerRpcs,
  type BrokerChange,
  type BrokerChangeResult,
  type CreateAddressRequest,
  type CreateQueueRequest,
  type DeleteAddressQuery,
  type SendMessageRequest,
} from '@artemis-studio/contracts';
import { Body, Controller, Delete, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { BrokerName, Valid } from '../http/validation.pipe';
import { OwnerClient } from '../owner/owner-client';
import { ActionRunner } from './action-runner';
import { ACTION_TIMEOUT_MS } from './action-timeout';
import { Describe, brokerChange } from '../openapi/operation';
import { CurrentPrincipal } from '../access/request-context';
import type { Principal } from '../access/principal';
import { ProtectionGate } from '../protections/protection-gate';

/** What the audit row keeps of a change: each node's outcome. */
const nodesOf = (result: BrokerChangeResult) => ({
  nodes: result.nodes.map(({ node, outcome, error }) => ({ node, outcome, ...(error ? { error } : {}) })),
});

/**
 * Creating queues and addresses, deleting addresses and sending a message, through the cluster's
 * owner, each with an Idempotency-Key on a cluster that is not read-only. Queues and messages are
 * an operator's; addresses, which every queue hangs from, an administrator's.
 */
@Controller('api/v1/clusters/:id')
export class BrokerChangesController {
  constructor(
    private readonly owner: OwnerClient,
    private readonly actions: ActionRunner,
    private readonly gate: ProtectionGate,
  ) {}

  /** A queue on every live node. */
  @Post('queues')
  @Describe(brokerChange('Create a queue on every live node', CreateQueueRequestSchema))
  @HttpCode(200)
  @Access.cluster('operator')
  @Audited('queue.create')
  createQueue(
    @Cluster() cluster: RegisteredCluster,
    @Body(new Valid(CreateQueueRequestSchema, 'queue')) queue: CreateQueueRequest,
    @Headers('idempotency-key') key: string | undefined,
    @AuditRecord() note: AuditNote,
  ) {
    return this.change(cluster.id, key, note, queue.name, { kind: 'create-queue', queue }, { ...queue });
  }

  /** One message, sent by the broker to the queue on one node. Its body is never audited. */
  @Post('queues/:queue/messages')
  @Describe(
    brokerChange(
      'Send one message to the queue, on one node (a Core message; headers become String properties)',
      SendMessageRequestSchema,
    ),
  )
  @HttpCode(200)
  @Access.cluster('operator')
  @Audited('message.send')
  send(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', BrokerName) queue: string,
    @Body(new Valid(SendMessageRequestSchema, 'message')) message: SendMessageRequest,
    @Headers('idempotency-key') key: string | undefined,
    @AuditRecord() note: AuditNote,
  ) {
    return this.sendMessage(cluster.id, key, note, { kind: 'send', queue, message });
  }

  /** One message, sent by the broker to the address (every queue bound to it) on one node. */
  @Post('addresses/:address/messages')
  @Describe(
    brokerChange(
      'Send one message to an address, routed to every queue bound to it, on one node',
      SendMessageRequestSchema,
    ),
  )
  @HttpCode(200)
  @Access.cluster('operator')
  @Audited('message.send')
  sendToAddress(
    @Cluster() cluster: RegisteredCluster,
    @Param('address', BrokerName) address: string,
    @Body(new Valid(SendMessageRequestSchema, 'message')) message: SendMessageRequest,
    @Headers('idempotency-key') key: string | undefined,
    @AuditRecord() note: AuditNote,
  ) {
    return this.sendMessage(cluster.id, key, note, { kind: 'send-to-address', address, message });
  }

  @Post('addresses')
  @Describe(brokerChange('Create an address on every live node (admin)', CreateAddressRequestSchema))
  @HttpCode(200)
  @Access.cluster('admin')
  @Audited('address.create')
  createAddress(
    @Cluster() cluster: RegisteredCluster,
    @Body(new Valid(CreateAddressRequestSchema, 'address')) address: CreateAddressRequest,
    @Headers('idempotency-key') key: string | undefined,
    @AuditRecord() note: AuditNote,
  ) {
    return this.change(
      cluster.id,
      key,
      note,
      address.name,
      { kind: 'create-address', address },
      { ...address },
    );
  }

  /** Refused by the broker while queues are bound to it, unless `removeQueues=true`. */
  @Delete('addresses/:address')
  @Describe({
    ...brokerChange(
      'Delete an address on every live node (admin); refused while queues are bound unless removeQueues=true',
    ),
    query: DeleteAddressQuerySchema,
  })
  @Access.cluster('admin')
  @Audited('address.delete')
  async deleteAddress(
    @Cluster() cluster: RegisteredCluster,
    @Param('address', BrokerName) name: string,
    @Query(new Valid(DeleteAddressQuerySchema, 'address deletion')) { removeQueues }: DeleteAddressQuery,
    @Headers('idempotency-key') key: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ) {
    await this.gate.deleting(cluster, principal, 'address', name, note);
    const remove = removeQueues === 'true';
    return this.change(
      cluster.id,
      key,
      note,
      name,
      { kind: 'delete-address', name, removeQueues: remove },
      {
        address: name,
        removeQueues: remove,
      },
    );
  }

  /**
   * `described` is what the audit row says of the request; `alsoCompared` what else a repeated
   * key must match without being audited (a message's body and header values).
   */
  /** The body is kept out of the audit row (personal data); its size and headers' names are in. */
  private sendMessage(
    id: string,
    key: string | undefined,
    note: AuditNote,
    change: Extract<BrokerChange, { kind: 'send' | 'send-to-address' }>,
  ) {
    const { message } = change;
    const to = change.kind === 'send' ? { queue: change.queue } : { address: change.address };
    const described = {
      ...to,
      bodyBytes: Buffer.byteLength(message.body),
      bodyEncoding: message.bodyEncoding,
      headers: Object.keys(message.headers),
      // Names and types only: a value may be what the masking rules hide in a body.
      properties: message.properties.map((p) => `${p.name}:${p.type}`),
      ...(message.routingType ? { routingType: message.routingType } : {}),
      durable: message.durable,
      ...(message.node ? { node: message.node } : {}),
    };
    return this.change(id, key, note, Object.values(to)[0], change, described, {
      body: message.body,
      headers: message.headers,
      properties: message.properties,
    });
  }

  private change(
    clusterId: string,
    key: string | undefined,
    note: AuditNote,
    target: string,
    change: BrokerChange,
    described: Record<string, unknown>,
    alsoCompared: Record<string, unknown> = {},
  ): Promise<BrokerChangeResult> {
    return this.actions.run({
      clusterId,
      key,
      request: { change: change.kind, ...described },
      compared: alsoCompared,
      target,
      note,
      act: () =>
        this.owner.ask(
          ownerRpcs.brokerChange,
          { clusterId, change },
          `${change.kind} of ${target}`,
          ACTION_TIMEOUT_MS,
        ),
      audit: nodesOf,
    });
  }
}
