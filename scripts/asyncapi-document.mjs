// The NATS contract as AsyncAPI 3.0, generated from libs/contracts (built): every channel's
// subjects (from the very functions the services publish with), payload schemas (from the zod
// schemas every receiver validates with), the JetStream stream and the KV buckets. Used by
// scripts/check-api-descriptions.mjs, which validates it and keeps docs/asyncapi.yaml current.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { z } from 'zod';

const require = createRequire(import.meta.url);
const contracts = require(join(import.meta.dirname, '..', 'libs', 'contracts', 'dist', 'index.js'));
const { channels, subjects, rpcs, buckets, streams, SIGNAL_TOPICS } = contracts;

const schemaOf = (schema) => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' });
  return rest;
};

/** A subject function's parameter names, read from its own source: `(clusterId, topic) => …`. */
const parameterNames = (fn) =>
  /^\(?([^)=]*)\)?\s*=>/
    .exec(fn.toString())[1]
    .split(',')
    .map((p) => p.trim().split('=')[0].trim())
    .filter(Boolean);

const PARAMETERS = {
  clusterId: { description: 'The cluster (a UUID, as registered at the gateway)' },
  topic: { description: 'What changed', enum: SIGNAL_TOPICS ? [...SIGNAL_TOPICS] : undefined },
  action: { description: 'The audited action, such as cluster.update or auth.sign-in (may hold dots)' },
  state: {
    description: "The alert's new state",
    enum: contracts.ALERT_STATES ? [...contracts.ALERT_STATES] : undefined,
  },
};

const describeParameters = (names) =>
  Object.fromEntries(
    names.map((n) => [
      n,
      Object.fromEntries(Object.entries(PARAMETERS[n] ?? {}).filter(([, v]) => v !== undefined)),
    ]),
  );

export function asyncApiDocument() {
  const doc = {
    asyncapi: '3.0.0',
    info: {
      title: 'Artemis Studio NATS contract',
      version: '1.0.0',
      description:
        'The subjects, stream and buckets other tools tap (docs/nats-contract.md). Generated from libs/contracts; every Studio service validates each message against these schemas on receipt.',
    },
    defaultContentType: 'application/json',
    servers: { nats: { host: 'nats:4222', protocol: 'nats', description: 'NATS with JetStream' } },
    channels: {},
    operations: {},
    components: { messages: {}, schemas: {} },
  };
  for (const [key, channel] of Object.entries(channels)) {
    const names = parameterNames(subjects[key]);
    const address = subjects[key](...names.map((n) => `{${n}}`));
    doc.components.schemas[channel.name] = schemaOf(channel.schema);
    doc.components.messages[key] = {
      name: channel.name,
      payload: { $ref: `#/components/schemas/${channel.name}` },
    };
    doc.channels[key] = {
      address,
      ...(names.length ? { parameters: describeParameters(names) } : {}),
      messages: { [key]: { $ref: `#/components/messages/${key}` } },
      ...(channel.stream
        ? {
            description: `Captured by the JetStream stream ${channel.stream.name} (${channel.stream.retention} retention, discard ${channel.stream.discard}); published with a message id for de-duplication.`,
          }
        : {}),
    };
    doc.operations[`${key}`] = {
      action: 'receive',
      channel: { $ref: `#/channels/${key}` },
      summary: `Tap ${channel.name}`,
    };
  }
  for (const [key, rpc] of Object.entries(rpcs)) {
    const base = subjects.rpc(rpc.name);
    const request = `${key}Request`;
    const reply = `${key}Reply`;
    doc.components.schemas[request] = schemaOf(rpc.request);
    doc.components.schemas[reply] = schemaOf(rpc.reply);
    doc.components.messages[request] = {
      name: request,
      payload: { $ref: `#/components/schemas/${request}` },
    };
    doc.components.messages[reply] = { name: reply, payload: { $ref: `#/components/schemas/${reply}` } };
    doc.channels[request] = {
      address: rpc.keyedBy ? `${base}.{${rpc.keyedBy}}` : base,
      ...(rpc.keyedBy ? { parameters: describeParameters([rpc.keyedBy]) } : {}),
      description: rpc.keyedBy
        ? `Answered only by the owner of the ${rpc.keyedBy}.`
        : 'Answered by one member of the serving queue group. Errors carry the Nats-Service-Error and Nats-Service-Error-Code headers.',
      messages: { [request]: { $ref: `#/components/messages/${request}` } },
    };
    doc.channels[reply] = {
      address: null,
      description: "The requester's inbox.",
      messages: { [reply]: { $ref: `#/components/messages/${reply}` } },
    };
    doc.operations[key] = {
      action: 'send',
      channel: { $ref: `#/channels/${request}` },
      summary: `Request ${rpc.name}`,
      reply: { channel: { $ref: `#/channels/${reply}` } },
    };
  }
  // JetStream KV buckets and the stream are not AsyncAPI channels; described as extensions.
  doc['x-jetstream'] = {
    streams: Object.values(streams).map((s) => ({
      name: s.name,
      subjects: s.subjects,
      retention: s.retention,
      discard: s.discard,
      consumers: s.consumers.map((c) => c.durable),
    })),
    kv: Object.values(buckets).map((b) => ({ bucket: b.name, value: schemaOf(b.schema) })),
  };
  return doc;
}
