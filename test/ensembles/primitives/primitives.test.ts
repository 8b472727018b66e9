import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { confirmAction } from '../../../src/ensembles/primitives/confirmAction.js';
import { getUserInput } from '../../../src/ensembles/primitives/getUserInput.js';
import {
  INTERACTIVE_PRIMITIVES,
  PRIMITIVES,
  primitiveNameOf,
} from '../../../src/ensembles/primitives/registry.js';
import { jsonExtract } from '../../../src/ensembles/primitives/jsonExtract.js';
import { PRIMITIVE_NAMES } from '../../../src/ensembles/primitives/names.js';
import { readFile } from '../../../src/ensembles/primitives/readFile.js';
import { replicateNTimes } from '../../../src/ensembles/primitives/replicateNTimes.js';
import { primitiveParameters } from '../../../src/ensembles/primitives/types.js';
import type { PrimitiveRequest } from '../../../src/ensembles/primitives/types.js';
import { writeFile } from '../../../src/ensembles/primitives/writeFile.js';
import { tempDir } from '../helpers.js';

const request = (
  parameters: Record<string, unknown>,
  extra: Partial<PrimitiveRequest> = {},
): PrimitiveRequest => ({
  stdin: { input: 'task', parameters, context: {} },
  env: {},
  cwd: extra.cwd ?? process.cwd(),
  ...extra,
});

describe('bundled primitives', () => {
  it('are registered under llm-orc names and found from llm-orc script paths', () => {
    expect(Object.keys(PRIMITIVES).sort()).toEqual([
      'confirm_action',
      'get_user_input',
      'json_extract',
      'read_file',
      'replicate_n_times',
      'write_file',
    ]);
    expect([...INTERACTIVE_PRIMITIVES].sort()).toEqual(['confirm_action', 'get_user_input']);
    // The names scripts resolve against (loaded without the primitives' code) are the registry's.
    expect([...PRIMITIVE_NAMES].sort()).toEqual(Object.keys(PRIMITIVES).sort());
    expect(primitiveNameOf('primitives/control-flow/replicate-n-times.py')).toBe(
      'replicate_n_times',
    );
    expect(primitiveNameOf('scripts/my_tool.py')).toBeUndefined();
  });

  it('read parameters from AGENT_PARAMETERS first, then stdin.parameters, then stdin', () => {
    expect(
      primitiveParameters(request({ a: 1 }, { env: { AGENT_PARAMETERS: '{"b":2}' } })),
    ).toEqual({ b: 2 });
    expect(primitiveParameters(request({ a: 1 }, { env: { AGENT_PARAMETERS: '{}' } }))).toEqual({
      a: 1,
    });
    expect(primitiveParameters({ stdin: { path: 'x' }, env: {}, cwd: '.' })).toEqual({ path: 'x' });
  });

  it('write_file then read_file round-trip, relative to cwd, creating folders', async () => {
    const cwd = tempDir();
    const content = '{"é": 1}';
    const written = await writeFile(request({ path: 'out/dir/f.json', content }, { cwd }));
    expect(written).toEqual({
      success: true,
      path: 'out/dir/f.json',
      size: 8,
      bytes_written: 9,
      error: null,
    });
    expect(readFileSync(path.join(cwd, 'out/dir/f.json'), 'utf8')).toBe(content);
    const read = await readFile(request({ path: 'out/dir/f.json' }, { cwd }));
    expect(read).toEqual({ success: true, content, path: 'out/dir/f.json', size: 8, error: null });
  });

  it('read_file of a missing file reports success: false with the error', async () => {
    const cwd = tempDir();
    const read = await readFile(request({ path: 'nope.txt' }, { cwd }));
    expect(read).toMatchObject({ success: false, content: null, path: 'nope.txt', size: 0 });
    expect(String(read.error)).toMatch(/ENOENT/);
    writeFileSync(path.join(cwd, 'input.txt'), 'default file');
    expect((await readFile(request({}, { cwd }))).content).toBe('default file');
  });

  it('json_extract picks fields from a string or an object and lists the missing ones', async () => {
    expect(
      await jsonExtract(
        request({
          json_data: '{"a": 1, "b": [2], "__proto__": {"x": 1}}',
          fields: ['a', 'b', 'c'],
        }),
      ),
    ).toEqual({
      success: true,
      extracted: { a: 1, b: [2] },
      missing_fields: ['c'],
      total_fields: 3,
      extracted_count: 2,
      error: null,
    });
    expect(await jsonExtract(request({ json_data: { k: 'v' }, fields: ['k'] }))).toMatchObject({
      extracted: { k: 'v' },
      extracted_count: 1,
    });
    const bad = await jsonExtract(request({ json_data: '{nope', fields: ['a'] }));
    expect(bad).toMatchObject({ success: false, extracted: {} });
    expect(String(bad.error)).toMatch(/^Invalid JSON: /);
  });

  it('replicate_n_times numbers the runs and derives seeds from the base seed', async () => {
    expect(await replicateNTimes(request({ replications: 3, seed: 42 }))).toEqual({
      success: true,
      replications: [
        { replication_id: 1, total_replications: 3, random_seed: 42 },
        { replication_id: 2, total_replications: 3, random_seed: 43 },
        { replication_id: 3, total_replications: 3, random_seed: 44 },
      ],
      total_replications: 3,
      base_seed: 42,
      error: null,
    });
    const random = await replicateNTimes(request({}));
    expect(random).toMatchObject({ success: true, total_replications: 1, base_seed: null });
    const seed = (random.replications as { random_seed: number }[])[0]!.random_seed;
    expect(seed).toBeGreaterThanOrEqual(1);
    expect(seed).toBeLessThanOrEqual(1_000_000);
    expect(await replicateNTimes(request({ replications: 0 }))).toMatchObject({ success: false });
  });

  it('get_user_input asks through the handler; without one it takes a pre-collected input', async () => {
    const asked: string[] = [];
    const answered = await getUserInput(
      request({ prompt: 'Name?', multiline: true }, { ask: async (p) => (asked.push(p), 'Ada') }),
    );
    expect(asked).toEqual(['Name?']);
    expect(answered).toEqual({
      success: true,
      input: 'Ada',
      multiline: true,
      length: 3,
      error: null,
    });
    expect(await getUserInput(request({}))).toMatchObject({ success: true, input: '', length: 0 });
    expect(await getUserInput(request({ pre_collected: 'given' }))).toMatchObject({
      input: 'given',
    });
    expect(await confirmAction(request({ default: 'y' }))).toMatchObject({
      confirmed: true,
      input: 'y',
    });
    const cancelled = await getUserInput(
      request({}, { ask: async () => Promise.reject(new Error('no more answers')) }),
    );
    expect(cancelled).toMatchObject({ success: false, error: 'no more answers' });
  });

  it('confirm_action: yes words confirm, an empty answer takes the default', async () => {
    const ask = (answer: string) => async () => answer;
    for (const [answer, fallback, confirmed] of [
      ['Y', 'n', true],
      ['yes', 'n', true],
      ['1', 'n', true],
      ['no', 'y', false],
      ['', 'y', true],
      ['', 'n', false],
    ] as const) {
      const result = await confirmAction(
        request({ prompt: 'Go?', default: fallback }, { ask: ask(answer) }),
      );
      expect(result.confirmed).toBe(confirmed);
      expect(result.input).toBe(answer.toLowerCase() || fallback);
    }
    const asked: string[] = [];
    await confirmAction(
      request({ prompt: 'Ship?', default: 'y' }, { ask: async (p) => (asked.push(p), '') }),
    );
    expect(asked).toEqual(['Ship? [Y/n]']);
  });
});
