import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDocumentedOutputs } from '../../src/ensembles/llmorc/documented.js';
import { parseEnsemble } from '../../src/ensembles/load.js';
import { cli, io, tempDir } from '../cli/commands/ensembles/helpers.js';

const project = path.resolve('examples/llm-orc');
const ensembles = path.join(project, '.llm-orc', 'ensembles');

interface Json {
  completion_reason: string;
  status: string;
  results: Record<string, { response: string | null; status: string }>;
  conversation_history: { agent_name: string; output_data: Record<string, unknown> }[];
}

async function run(name: string, ...args: string[]): Promise<Json> {
  const cwd = tempDir();
  process.chdir(cwd);
  io.out = '';
  await cli(
    'invoke',
    path.join(ensembles, `${name}.yaml`),
    ...args,
    '-o',
    'json',
    '--no-artifacts',
    '--store',
    path.join(cwd, 'runs.db'),
  );
  return JSON.parse(io.out) as Json;
}

function documented(name: string, json: Json) {
  const text = readFileSync(path.join(ensembles, `${name}.yaml`), 'utf8');
  const ensemble = parseEnsemble(text, { file: path.join(ensembles, `${name}.yaml`) });
  const results: Record<string, { status: string; output?: Record<string, unknown> }> = {};
  for (const [agent, item] of Object.entries(json.results))
    results[agent] = { status: item.status };
  for (const turn of json.conversation_history) results[turn.agent_name]!.output = turn.output_data;
  return checkDocumentedOutputs(ensemble.llmorc?.validation, results);
}

describe('examples/llm-orc (an llm-orc project, offline)', () => {
  it('text-pipeline: Node and bash scripts, a mock analyst and the write_file primitive', async () => {
    const json = await run('text-pipeline');
    expect([json.completion_reason, json.status]).toEqual(['completed', 'completed']);
    expect(JSON.parse(json.results.stats!.response!)).toEqual({
      success: true,
      word_count: 8,
      top_words: ['colloquy', 'load', 'primitives'],
    });
    expect(json.results.headline!.response).toBe('HEADLINE: COLLOQUY RUNS LLM-ORC PROJECTS');
    expect(json.results.summary!.response).toMatch(/^\[mock-analyst\] offline mock reply/);
    expect(
      existsSync(path.join(process.cwd(), '.llm-orc/artifacts/examples/text-pipeline.txt')),
    ).toBe(true);
    expect(documented('text-pipeline', json).failed).toEqual([]);
  });

  it('review/plan-review: inline model, per-agent override, input_scope and json_extract', async () => {
    const json = await run('review/plan-review', 'Plan: ship on Friday.');
    expect(json.status).toBe('completed');
    expect(json.results.risks!.response).toContain('[mock-risks]');
    expect(json.results.review!.response).toContain('[mock-reviewer]');
    expect(json.results.verdict!.response).toContain('[mock-strict]');
    expect(JSON.parse(json.results.facts!.response!)).toMatchObject({
      extracted: { host: 'db-2', rollback: false },
      missing_fields: ['owner'],
    });
    const check = documented('review/plan-review', json);
    expect(check.documented).toBe(true);
    expect(check.failed).toEqual([]);
  });

  it('every example validates', async () => {
    io.out = '';
    await cli(
      'validate',
      path.join(ensembles, 'text-pipeline.yaml'),
      path.join(ensembles, 'review', 'plan-review.yaml'),
    );
    expect(io.out.trim().split('\n')).toEqual([
      `${path.join(ensembles, 'text-pipeline.yaml')}: ok`,
      `${path.join(ensembles, 'review', 'plan-review.yaml')}: ok`,
    ]);
  });
});
