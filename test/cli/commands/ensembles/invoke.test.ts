import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveInput } from '../../../../src/cli/commands/ensembles/invoke.js';
import { cli, io, llmOrcProject, tempDir } from './helpers.js';

interface Json {
  completion_reason: string;
  status: string;
  input: { data: string };
  results: Record<string, { response: string | null; status: string; error?: string }>;
  metadata: { agents_used: number; run_id: string };
  run_id: string;
  conversation_history: unknown[];
}

describe('colloquy invoke, as llm-orc users type it', () => {
  it('runs an llm-orc project by nested name with a positional input; JSON has results and metadata', async () => {
    const root = llmOrcProject();
    process.chdir(root);
    await cli(
      'invoke',
      'testing/pipeline',
      'the quick brown fox',
      '--output-format',
      'json',
      '--store',
      path.join(root, 'runs.db'),
    );
    const json = JSON.parse(io.out) as Json;
    expect(json.completion_reason).toBe('completed');
    expect(json.status).toBe('completed');
    expect(json.input).toEqual({ data: 'the quick brown fox' });
    expect(json.results.count).toEqual({
      response: '{"success":true,"words":4}',
      status: 'success',
    });
    expect(json.results.shout).toEqual({
      response: 'INPUT=the quick brown fox',
      status: 'success',
    });
    expect(json.results.analyst!.status).toBe('success');
    expect(json.results.analyst!.response).toContain('[mock-analyst]');
    expect(json.results.analyst!.response).toContain('the quick brown fox');
    expect(json.metadata.agents_used).toBe(3);
    expect(json.metadata.run_id).toBe(json.run_id);
    expect(json.conversation_history).toHaveLength(3);
  });

  it('writes execution.json and execution.md under .llm-orc/artifacts/<folder>/<ensemble>/<timestamp>/', async () => {
    const root = llmOrcProject();
    process.chdir(root);
    await cli(
      'invoke',
      'pipeline',
      '--input-data',
      'one two three',
      '-o',
      'json',
      '--store',
      path.join(root, 'runs.db'),
    );
    const base = path.join(root, '.llm-orc', 'artifacts', 'testing', 'pipeline');
    const runs = readdirSync(base).filter((name) => name !== 'latest');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatch(/^\d{8}-\d{6}-\d{3}$/);
    const saved = JSON.parse(
      readFileSync(path.join(base, runs[0]!, 'execution.json'), 'utf8'),
    ) as Json;
    expect(saved.results.count!.response).toBe('{"success":true,"words":3}');
    expect(readFileSync(path.join(base, 'latest', 'execution.md'), 'utf8')).toContain('# pipeline');
    expect(io.err).toContain(`artifacts: ${path.join(base, runs[0]!)}`);
  });

  it('--no-artifacts writes none; -f reads the input from a file; text output shows each result', async () => {
    const root = llmOrcProject();
    process.chdir(root);
    writeFileSync(path.join(root, 'input.txt'), 'alpha beta gamma delta');
    await cli(
      'invoke',
      'pipeline',
      '-f',
      'input.txt',
      '--output-format',
      'text',
      '--no-artifacts',
      '--store',
      path.join(root, 'runs.db'),
    );
    expect(existsSync(path.join(root, '.llm-orc', 'artifacts'))).toBe(false);
    expect(io.out).toContain('completion_reason: completed');
    expect(io.out).toMatch(/ {2}count \[success\]:\n {4}\{"success":true,"words":4\}/);
    expect(io.out).toContain('INPUT=alpha beta gamma delta');
    io.out = '';
    await cli(
      'invoke',
      'pipeline',
      'a b',
      '--no-detailed',
      '--output',
      'text',
      '--no-artifacts',
      '--store',
      path.join(root, 'runs.db'),
    );
    expect(io.out).not.toContain('results:');
  });

  it('refuses two inputs, a bad --max-concurrent and conflicting --output/--output-format', async () => {
    const root = llmOrcProject();
    process.chdir(root);
    const store = ['--store', path.join(root, 'runs.db'), '--no-artifacts'];
    await expect(cli('invoke', 'pipeline', 'x', '--input', 'y', ...store)).rejects.toThrow(
      /Give the input once/,
    );
    await expect(cli('invoke', 'pipeline', 'x', '--max-concurrent', '0', ...store)).rejects.toThrow(
      /--max-concurrent 0 is not a positive integer/,
    );
    await expect(
      cli('invoke', 'pipeline', 'x', '--output', 'json', '--output-format', 'text', ...store),
    ).rejects.toThrow(/same option/);
    await expect(cli('invoke', 'nope', 'x', ...store)).rejects.toThrow(
      /"nope" was not found.*llm-orc/s,
    );
  });

  it('a missing script file stops before the run, naming every place looked', async () => {
    const root = llmOrcProject();
    writeFileSync(
      path.join(root, '.llm-orc', 'ensembles', 'gone.yaml'),
      'name: gone\ndescription: x\nagents:\n  - name: a\n    script: scripts/missing.py\n',
    );
    process.chdir(root);
    await expect(cli('invoke', 'gone', 'x', '--store', path.join(root, 'runs.db'))).rejects.toThrow(
      new RegExp(
        `agent "a": script file does not exist; looked at .*${path.join('.llm-orc', 'scripts', 'missing.py').replaceAll('.', '\\.')}`,
      ),
    );
  });

  it('resolveInput: positional, options, file, and nothing', async () => {
    expect(await resolveInput('pos', {})).toBe('pos');
    expect(await resolveInput(undefined, { inputData: 'data' })).toBe('data');
    const file = path.join(tempDir(), 'in.txt');
    writeFileSync(file, 'from file');
    expect(await resolveInput(undefined, { inputFile: file })).toBe('from file');
    await expect(resolveInput(undefined, { inputFile: `${file}.none` })).rejects.toThrow(
      /could not be read/,
    );
  });
});
