import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatYamlPath, locateYamlPath, parseYamlWithSchema } from '../src/yamlErrors.js';

describe('locateYamlPath', () => {
  it('finds a nested value inside a sequence', () => {
    const lineCounter = new LineCounter();
    const doc = parseDocument('steps:\n  - agent: a\n  - agent: b\n', { lineCounter });
    expect(locateYamlPath(doc, ['steps', 1, 'agent'], lineCounter)).toEqual({
      line: 3,
      column: 12,
    });
  });

  it('falls back to the deepest existing node for a missing key', () => {
    const lineCounter = new LineCounter();
    const doc = parseDocument('a:\n  b: 1\n', { lineCounter });
    expect(locateYamlPath(doc, ['a', 'missing'], lineCounter)).toEqual({ line: 2, column: 3 });
  });
});

describe('formatYamlPath', () => {
  it('renders keys and indexes', () => {
    expect(formatYamlPath(['steps', 2, 'agent'])).toBe('steps[2].agent');
  });
});

describe('parseYamlWithSchema', () => {
  it('reports a missing required key at its parent', () => {
    const schema = z.object({ name: z.string(), size: z.number() }).strict();
    expect(() => parseYamlWithSchema('x.yaml', 'name: n\n', schema)).toThrow(/x\.yaml:1:1: size: /);
  });
});
