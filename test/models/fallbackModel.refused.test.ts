import { describe, expect, it } from 'vitest';
import { refusedAddress } from '../../src/models/fallbackModel.js';

describe('refusedAddress', () => {
  it('finds host and port of a refused connection in a wrapped cause chain', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), {
      code: 'ECONNREFUSED',
      address: '127.0.0.1',
      port: 8799,
    });
    const wrapped = new Error('Connection error.', {
      cause: new Error('fetch failed', { cause: refused }),
    });
    expect(refusedAddress(wrapped)).toBe('127.0.0.1:8799');
    const both = Object.assign(new Error('fetch failed'), {
      cause: Object.assign(new AggregateError([refused]), { errors: [refused] }),
    });
    expect(refusedAddress(both)).toBe('127.0.0.1:8799');
    expect(refusedAddress({ code: 'ECONNREFUSED', address: '::1', port: 1 })).toBe('[::1]:1');
    expect(refusedAddress(new Error('timeout'))).toBeUndefined();
  });
});
