import { describe, expect, it } from 'vitest';
import { isAgencyLike } from '../../src/agency/isAgencyLike.js';
import { echoAgency } from '../server/helpers.js';

describe('isAgencyLike', () => {
  it('accepts an Agency and an object of the same shape from another copy', () => {
    const agency = echoAgency();
    expect(isAgencyLike(agency)).toBe(true);
    const copy = {
      name: 'other',
      getResponse: () => undefined,
      getResponseStream: () => undefined,
      agents: new Map(),
    };
    expect(isAgencyLike(copy)).toBe(true);
  });

  it.each([
    ['null', null],
    ['a string', 'agency'],
    ['no agents map', { name: 'x', getResponse() {}, getResponseStream() {}, agents: {} }],
    ['no stream method', { name: 'x', getResponse() {}, agents: new Map() }],
    [
      'a name that is not a string',
      { name: 1, getResponse() {}, getResponseStream() {}, agents: new Map() },
    ],
  ])('rejects %s', (_label, value) => {
    expect(isAgencyLike(value)).toBe(false);
  });
});
