import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendCase,
  loadDataset,
  parseJsonlDataset,
  parseYamlDataset,
} from '../../src/evals/dataset.js';
import { tempDir } from './helpers.js';

describe('datasets', () => {
  it('reads JSON Lines, skipping blank and comment lines, with default ids', () => {
    const dataset = parseJsonlDataset(
      'cases.jsonl',
      '{"input": "a", "expected": "A"}\n\n// a comment\n{"id": "two", "input": ["x", "y"], "tags": ["t"]}\n',
    );
    expect(dataset.cases).toEqual([
      { id: 'case-1', input: 'a', expected: 'A' },
      { id: 'two', input: ['x', 'y'], tags: ['t'] },
    ]);
  });

  it('names the file, the line and the field of a bad case', () => {
    const text = '{"input": "a"}\n{"input": "b", "thresholds": {"exact": 2}}\n';
    expect(() => parseJsonlDataset('cases.jsonl', text)).toThrow(
      /^cases\.jsonl:2: thresholds\.exact: expected a number from 0 to 1/,
    );
    expect(() => parseJsonlDataset('cases.jsonl', '{"input": 3}')).toThrow(
      /cases\.jsonl:1: input: /,
    );
    expect(() => parseJsonlDataset('cases.jsonl', '{"input": "a", "expect": "b"}')).toThrow(
      /cases\.jsonl:1: .*expect/,
    );
    expect(() => parseJsonlDataset('cases.jsonl', '{"input": "a"}\n{oops')).toThrow(
      /cases\.jsonl:2: not JSON/,
    );
  });

  it('refuses two cases with one id, naming both lines', () => {
    expect(() =>
      parseJsonlDataset('c.jsonl', '{"id": "x", "input": "a"}\n{"id": "x", "input": "b"}'),
    ).toThrow(/c\.jsonl:2: id: "x" is used twice \(first at line 1\)/);
  });

  it('reads YAML lists and { cases }, with line:column in errors', () => {
    const list = parseYamlDataset(
      'd.yaml',
      '- input: a\n  expected: A\n- id: b\n  input: [x, y]\n',
    );
    expect(list.cases.map((c) => c.id)).toEqual(['case-1', 'b']);
    const wrapped = parseYamlDataset('d.yaml', 'cases:\n  - input: a\n');
    expect(wrapped.cases).toEqual([{ id: 'case-1', input: 'a' }]);
    expect(() =>
      parseYamlDataset('d.yaml', 'cases:\n  - input: a\n  - input: b\n    tags: 3\n'),
    ).toThrow(/d\.yaml:4:11: cases\[1\]\.tags: /);
    expect(() => parseYamlDataset('d.yaml', '- id: x\n  input: a\n- id: x\n  input: b\n')).toThrow(
      /d\.yaml:3: id: "x" is used twice \(first at line 1\)/,
    );
  });

  it('loads by extension and refuses others', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'cases.yml');
    await writeFile(file, '- input: hi\n');
    expect((await loadDataset(file)).cases).toHaveLength(1);
    await expect(loadDataset(path.join(dir, 'cases.csv'))).rejects.toThrow(/Could not read/);
    await writeFile(path.join(dir, 'cases.txt'), '');
    await expect(loadDataset(path.join(dir, 'cases.txt'))).rejects.toThrow(
      /neither \.jsonl nor \.yaml/,
    );
  });

  it('appends cases, adding the missing newline', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'cases.jsonl');
    await writeFile(file, '{"input": "a"}');
    await appendCase(file, { id: 'b', input: 'b', expected: 'B' });
    expect(await readFile(file, 'utf8')).toBe(
      '{"input": "a"}\n{"id":"b","input":"b","expected":"B"}\n',
    );
    expect((await loadDataset(file)).cases.map((c) => c.id)).toEqual(['case-1', 'b']);
  });
});
