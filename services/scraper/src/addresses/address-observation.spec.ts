import { parseAddresses } from './address-observation';

describe('parseAddresses', () => {
  it('reads each address, its limit percent as a fraction', () => {
    const reading = parseAddresses({
      status: 200,
      value: {
        'org.apache.activemq.artemis:address="orders",broker="b",component=addresses': {
          Address: 'orders',
          AddressSize: 2048,
          Paging: true,
          NumberOfPages: 3,
          AddressLimitPercent: 87,
        },
      },
    });
    expect(reading).toEqual({
      addresses: [{ name: 'orders', sizeBytes: 2048, paging: true, pages: 3, limitFraction: 0.87 }],
      unread: [],
    });
  });

  it('keeps an address whose figures came back as errors as unread, named by its MBean', () => {
    const reading = parseAddresses({
      status: 200,
      value: {
        'org.apache.activemq.artemis:address="orders",broker="b",component=addresses': {
          Address: 'ERROR: java.lang.IllegalStateException',
          AddressSize: 'ERROR: java.lang.IllegalStateException',
          Paging: false,
          NumberOfPages: 0,
        },
      },
    });
    expect(reading).toEqual({ addresses: [], unread: ['orders'] });
  });

  it('takes 404 as no address at all, and any other failure as an error', () => {
    expect(parseAddresses({ status: 404, error: 'InstanceNotFoundException' })).toEqual({
      addresses: [],
      unread: [],
    });
    expect(() => parseAddresses({ status: 403, error: 'denied' })).toThrow(/denied/);
  });
});
