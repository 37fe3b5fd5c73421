import { propertyValueProblem, SendMessageRequestSchema, sentOverAmqp } from './broker-changes';

describe('a typed message property', () => {
  it.each([
    ['int', '2147483647'],
    ['int', '-2147483648'],
    ['long', '9223372036854775807'],
    ['long', '-9223372036854775808'],
    ['double', '1.5e3'],
    ['boolean', 'false'],
    ['string', ''],
  ] as const)('takes a %s of %p', (type, value) => {
    expect(propertyValueProblem(type, value)).toBeNull();
  });

  it.each([
    ['int', '2147483648'],
    ['int', '1.5'],
    ['long', '9223372036854775808'],
    ['double', 'NaN'],
    ['double', ' '],
    ['boolean', 'yes'],
  ] as const)('refuses a %s of %p', (type, value) => {
    expect(propertyValueProblem(type, value)).not.toBeNull();
  });

  it('makes a send go over AMQP only when it carries what management cannot send', () => {
    const plain = SendMessageRequestSchema.parse({ body: 'x', headers: { a: 'b' } });
    expect(sentOverAmqp(plain)).toBe(false);
    expect(sentOverAmqp({ ...plain, routingType: 'MULTICAST' })).toBe(true);
    expect(
      sentOverAmqp(
        SendMessageRequestSchema.parse({ body: 'x', properties: [{ name: 'n', type: 'long', value: '1' }] }),
      ),
    ).toBe(true);
  });
});
