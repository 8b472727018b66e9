import { RunContext } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { sharedContext } from '../../src/agency/sharedContext.js';
import { ConfigError } from '../../src/errors.js';

describe('sharedContext', () => {
  it('reads and writes the context object itself', () => {
    const value: { count?: number; name?: string } = { name: 'ops' };
    const shared = sharedContext<typeof value>(new RunContext(value));
    expect(shared.value).toBe(value);
    expect(shared.get('count')).toBeUndefined();
    expect(shared.get('count', 0)).toBe(0);
    shared.set('count', 2);
    expect(value.count).toBe(2);
    expect(shared.has('count')).toBe(true);
    shared.delete('count');
    expect(shared.has('count')).toBe(false);
    expect(shared.get('name')).toBe('ops');
  });

  it('refuses a run without an object context', () => {
    expect(() => sharedContext(undefined)).toThrow(ConfigError);
    expect(() => sharedContext(new RunContext(null))).toThrow(/context is null/);
  });
});
