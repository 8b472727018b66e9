import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/errors.js';
import { checkYamlLimits, parseYamlText } from '../src/yamlErrors.js';

const flat = (n: number, indent = '') =>
  Array.from({ length: n }, (_, i) => `${indent}k${i}: ${i}`).join('\n');

describe('checkYamlLimits', () => {
  it('passes ordinary documents, nested maps and lists of small maps', () => {
    expect(
      checkYamlLimits('a: 1\nb:\n  c: 2\n  d: [1, 2]\nlist:\n  - x: 1\n    y: 2\n'),
    ).toBeUndefined();
    const items = Array.from({ length: 3000 }, (_, i) => `  - name: a${i}\n    v: ${i}`).join('\n');
    expect(checkYamlLimits(`agents:\n${items}\n`)).toBeUndefined();
  });

  it('stops a mapping with more keys than maxKeysPerMap, naming the line', () => {
    const problem = checkYamlLimits(`top:\n${flat(2001, '  ')}\n`);
    expect(problem).toMatchObject({ limit: 'map', count: 2001, max: 2000, line: 2002 });
    expect(problem!.message).toBe(
      'a mapping has more than 2000 keys (line 2002); split it into smaller mappings or files',
    );
    expect(checkYamlLimits(flat(50), { maxKeysPerMap: 10 })).toMatchObject({
      limit: 'map',
      line: 11,
    });
  });

  it('20,000 keys are refused in milliseconds, where parsing them takes seconds', () => {
    const text = flat(20_000);
    const started = performance.now();
    const problem = checkYamlLimits(text);
    expect(performance.now() - started).toBeLessThan(200);
    expect(problem?.limit).toBe('map');
    expect(() => parseYamlText('big.yaml', text)).toThrow(
      /^big\.yaml: a mapping has more than 2000 keys \(line 2001\)/,
    );
  });

  it('caps the total keys, the size and the aliases', () => {
    expect(checkYamlLimits('a: 1\nb: 2\nc: 3\n', { maxKeys: 2 })).toMatchObject({
      limit: 'keys',
      line: 3,
    });
    expect(checkYamlLimits('x'.repeat(11), { maxBytes: 10 })).toMatchObject({
      limit: 'size',
      count: 11,
    });
    const bomb = `a: &a [x]\nb: [${Array.from({ length: 20 }, () => '*a').join(', ')}]\n`;
    expect(checkYamlLimits(bomb, { maxAliases: 10 })).toMatchObject({ limit: 'aliases' });
    expect(checkYamlLimits('a: {b: 1, c: 2, d: 3}\n', { maxKeys: 3 })).toMatchObject({
      limit: 'keys',
    });
  });

  it('a long line without a colon is read in linear time', () => {
    const started = performance.now();
    expect(checkYamlLimits(`a${' b'.repeat(500_000)}`)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('parseYamlText reports an unresolved alias as a ConfigError, not a ReferenceError', () => {
    expect(() => parseYamlText('x.yaml', 'a: *nope\n')).toThrow(ConfigError);
    expect(() => parseYamlText('x.yaml', 'a: *nope\n')).toThrow(
      /^x\.yaml: invalid YAML: Unresolved alias/,
    );
  });
});
