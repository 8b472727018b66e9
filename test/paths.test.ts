import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultStorePath } from '../src/paths.js';

describe('defaultStorePath', () => {
  it('uses $COLLOQUY_DB when it is set', () => {
    expect(defaultStorePath({ COLLOQUY_DB: '/data/c.db' })).toBe('/data/c.db');
    expect(defaultStorePath({ COLLOQUY_DB: ':memory:' })).toBe(':memory:');
  });

  it('falls back to ./.colloquy/colloquy.db for an unset or blank variable', () => {
    const fallback = path.resolve('.colloquy', 'colloquy.db');
    expect(defaultStorePath({})).toBe(fallback);
    expect(defaultStorePath({ COLLOQUY_DB: '   ' })).toBe(fallback);
    expect(path.isAbsolute(defaultStorePath({}))).toBe(true);
  });
});
