import { notificationEventId } from './event-id';

describe('notificationEventId', () => {
  const properties = {
    _AMQ_NotifType: 'CONSUMER_CREATED',
    _AMQ_NotifTimestamp: 1764700000123,
    _AMQ_Address: 'orders',
    _AMQ_ConsumerCount: 2,
    _AMQ_User: null,
    JMSXDeliveryCount: 3,
    _AMQ_FilterString: "x='é'",
  };

  it('gives the id earlier builds gave: the old and the new notifier of a rolling update agree', () => {
    // Computed by the build before ids were hashed in one call (one hash update per part).
    expect(notificationEventId('c1', 'node-a', properties)).toBe('019ae051-0f7b-8add-858d-ad08f628484d');
  });

  it('is the same for a second delivery of the notification, and differs for another node', () => {
    const id = notificationEventId('c1', 'node-a', properties);
    expect(notificationEventId('c1', 'node-a', { ...properties, JMSXDeliveryCount: 4 })).toBe(id);
    expect(notificationEventId('c1', 'node-b', properties)).not.toBe(id);
  });
});
