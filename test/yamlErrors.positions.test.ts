import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../src/errors.js';
import {
  checkYamlLimits,
  formatYamlIssues,
  formatYamlPath,
  locateYamlPath,
  parseYamlText,
  parseYamlWithSchema,
} from '../src/yamlErrors.js';

function parsed(text: string) {
  const lineCounter = new LineCounter();
  return { doc: parseDocument(text, { lineCounter }), lineCounter };
}

function thrown(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('locateYamlPath', () => {
  it('points at the key itself with preferKey, at the value otherwise', () => {
    const { doc, lineCounter } = parsed('profiles:\n  fast:\n    provder: openai\n');
    const path = ['profiles', 'fast', 'provder'];
    expect(locateYamlPath(doc, path, lineCounter, true)).toEqual({ line: 3, column: 5 });
    expect(locateYamlPath(doc, path, lineCounter)).toEqual({ line: 3, column: 14 });
  });

  it('gives the document start for an empty path, and undefined for an empty document', () => {
    const { doc, lineCounter } = parsed('\n\nname: x\n');
    expect(locateYamlPath(doc, [], lineCounter)).toEqual({ line: 3, column: 1 });
    const empty = parsed('');
    expect(locateYamlPath(empty.doc, ['x'], empty.lineCounter)).toBeUndefined();
  });

  it('stops at a sequence index past its end, and at a string key on a sequence', () => {
    const { doc, lineCounter } = parsed('steps:\n  - a\n  - b\n');
    expect(locateYamlPath(doc, ['steps', 5], lineCounter)).toEqual({ line: 2, column: 3 });
    expect(locateYamlPath(doc, ['steps', 'name'], lineCounter)).toEqual({ line: 2, column: 3 });
  });

  it('locates keys in flow mappings', () => {
    const { doc, lineCounter } = parsed('profiles: { fast: { model: 1 } }\n');
    expect(locateYamlPath(doc, ['profiles', 'fast', 'model'], lineCounter)).toEqual({
      line: 1,
      column: 28,
    });
  });
});

describe('formatYamlPath', () => {
  it('renders the top level, a leading index and nested indexes', () => {
    expect(formatYamlPath([])).toBe('(top level)');
    expect(formatYamlPath([0, 'name'])).toBe('[0].name');
    expect(formatYamlPath(['grid', 1, 2])).toBe('grid[1][2]');
  });
});

describe('formatYamlIssues', () => {
  it('writes one line per unknown key, each at its own key', () => {
    const { doc, lineCounter } = parsed('a: 1\nbee: 2\ncee: 3\n');
    const text = formatYamlIssues({
      file: 'f.yaml',
      doc,
      lineCounter,
      issues: [{ path: [], message: 'x', code: 'unrecognized_keys', keys: ['bee', 'cee'] }],
    });
    expect(text.split('\n')).toEqual([
      'f.yaml:2:1: bee: unknown key "bee" (remove it or check its spelling)',
      'f.yaml:3:1: cee: unknown key "cee" (remove it or check its spelling)',
    ]);
  });

  it('names the file without a position when the document is empty', () => {
    const { doc, lineCounter } = parsed('');
    const text = formatYamlIssues({
      file: 'empty.yaml',
      doc,
      lineCounter,
      issues: [{ path: ['name'], message: 'Required' }],
    });
    expect(text).toBe('empty.yaml: name: Required');
  });
});

describe('parseYamlText', () => {
  it('reports the first syntax error with line and column and the fix', () => {
    const error = thrown(() => parseYamlText('bad.yaml', 'a: 1\nb: [1, 2\nc: 3\n'));
    expect(error.message).toMatch(/^bad\.yaml:\d+:\d+: invalid YAML: /);
    expect(error.message).toContain('Fix the syntax at that position.');
    expect(error.message.split('\n')).toHaveLength(1);
  });

  it('reports a duplicate key at its line', () => {
    const error = thrown(() => parseYamlText('dup.yaml', 'name: a\nsize: 1\nname: b\n'));
    expect(error.message).toMatch(/^dup\.yaml:3:1: invalid YAML: .*unique/i);
  });

  it('refuses a document over a limit before parsing it, naming the file', () => {
    const text = Array.from({ length: 2_001 }, (_, i) => `k${i}: ${i}`).join('\n');
    const error = thrown(() => parseYamlText('big.yaml', text));
    expect(error.message).toMatch(/^big\.yaml: a mapping has more than 2000 keys \(line 2001\)/);
  });

  it('keeps the positions for later lookups and the plain value', () => {
    const result = parseYamlText('ok.yaml', 'name: team\nagents:\n  - a\n');
    expect(result.value).toEqual({ name: 'team', agents: ['a'] });
    expect(locateYamlPath(result.doc, ['agents', 0], result.lineCounter)).toEqual({
      line: 3,
      column: 5,
    });
    expect(parseYamlText('empty.yaml', '').value).toBeNull();
  });
});

describe('parseYamlWithSchema', () => {
  const schema = z
    .object({
      name: z.string(),
      agents: z.array(z.object({ name: z.string(), model: z.string() }).strict()),
    })
    .strict();

  it('lists every problem, each with its position, in one error', () => {
    const text = 'name: 3\nagents:\n  - name: a\n    model: m\n  - name: b\n    modle: m\n';
    const error = thrown(() => parseYamlWithSchema('team.yaml', text, schema));
    const lines = error.message.split('\n');
    expect(lines[0]).toBe('team.yaml is invalid:');
    expect(lines).toContainEqual(expect.stringMatching(/^team\.yaml:1:7: name: /));
    expect(lines).toContainEqual(
      'team.yaml:6:5: agents[1].modle: unknown key "modle" (remove it or check its spelling)',
    );
    expect(lines).toContainEqual(expect.stringMatching(/^team\.yaml:5:5: agents\[1\]\.model: /));
  });

  it('checks an empty document as an empty object', () => {
    const error = thrown(() => parseYamlWithSchema('e.yaml', '', schema));
    expect(error.message).toContain('e.yaml: name:');
    expect(parseYamlWithSchema('e.yaml', '', z.object({ n: z.number().default(1) }))).toEqual({
      n: 1,
    });
  });
});

describe('checkYamlLimits edges', () => {
  it('allows exactly maxKeysPerMap keys and refuses one more', () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: 1`).join('\n');
    expect(checkYamlLimits(keys(10), { maxKeysPerMap: 10 })).toBeUndefined();
    expect(checkYamlLimits(keys(11), { maxKeysPerMap: 10 })).toMatchObject({
      limit: 'map',
      count: 11,
      max: 10,
      line: 11,
    });
  });

  it('counts each list item mapping on its own', () => {
    const text = Array.from({ length: 6 }, (_, i) => `- name: a${i}\n  model: m`).join('\n');
    expect(checkYamlLimits(text, { maxKeysPerMap: 2 })).toBeUndefined();
    expect(checkYamlLimits(text, { maxKeys: 11 })).toMatchObject({ limit: 'keys', count: 12 });
  });

  it('counts the keys of flow mappings toward the total', () => {
    const text = 'a: { b: 1, c: 2, d: 3 }\n';
    expect(checkYamlLimits(text, { maxKeys: 4 })).toBeUndefined();
    expect(checkYamlLimits(text, { maxKeys: 3 })).toMatchObject({ limit: 'keys', line: 1 });
    // A list item written as a flow mapping counts its keys once each, too.
    expect(checkYamlLimits('- { b: 1, c: 2 }\n', { maxKeys: 2 })).toBeUndefined();
    expect(checkYamlLimits('- { b: 1, c: 2 }\n', { maxKeys: 1 })).toMatchObject({ count: 2 });
  });

  it('measures size in characters, at the limit and past it', () => {
    expect(checkYamlLimits('a: 12', { maxBytes: 5 })).toBeUndefined();
    expect(checkYamlLimits('a: 123', { maxBytes: 5 })).toMatchObject({
      limit: 'size',
      count: 6,
      max: 5,
      line: 1,
    });
  });

  it('counts aliases but not asterisks inside words', () => {
    const aliases = 'base: &b 1\nx: *b\ny: [*b, *b]\n';
    expect(checkYamlLimits(aliases, { maxAliases: 3 })).toBeUndefined();
    expect(checkYamlLimits(aliases, { maxAliases: 2 })).toMatchObject({
      limit: 'aliases',
      max: 2,
    });
    expect(checkYamlLimits('note: 2*3*4 is 24\n', { maxAliases: 0 })).toBeUndefined();
  });
});
