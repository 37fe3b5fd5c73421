import type { ExportedMessage } from '@artemis-studio/contracts';
import { message, type Message } from 'rhea-promise';
import { keepAmqpTypes } from './amqp-types';
import { exportedMessage } from './exported-message';
import { importedMessage } from './imported-message';

const source = { clusterId: '00000000-0000-4000-8000-000000000001', node: 'a', queue: 'orders' };
const onTheWire = (m: Message) => message.decode(message.encode(m)) as unknown as Message;

describe('an imported message', () => {
  beforeAll(() => keepAmqpTypes());

  it('is sent as it was exported: fields, typed properties and body, without masked or broker properties', () => {
    const sent: ExportedMessage = {
      format: 'artemis-studio.message/1',
      source,
      durable: true,
      priority: 6,
      messageId: 'm-1',
      correlationId: 'c-1',
      subject: 'order',
      replyTo: 'replies',
      contentType: 'application/json',
      groupId: 'g',
      createdAt: '2026-12-06T10:00:00.000Z',
      expiresAt: null,
      properties: [
        { name: 'n', type: 'int', value: '3' },
        { name: 'id', type: 'long', value: '1152921504606846977' },
        { name: 'ratio', type: 'float', value: '0.5' },
        { name: 'small', type: 'short', value: '-2' },
      ],
      annotations: {},
      body: {
        encoding: 'base64',
        data: Buffer.from([1, 2, 255]).toString('base64'),
        truncated: false,
        masked: null,
      },
    };
    const leftOut: ExportedMessage['properties'] = [
      { name: 'email', type: 'string', value: '***', masked: true },
      { name: '_AMQ_DUPL_ID', type: 'string', value: 'x' },
    ];
    const withAll = {
      ...sent,
      properties: [...sent.properties, ...leftOut],
      annotations: { 'x-opt-ORIG-QUEUE': 'orders' },
    };
    expect(exportedMessage(onTheWire(importedMessage(withAll)), source)).toEqual(sent);
  });
});
