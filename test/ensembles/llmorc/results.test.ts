import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  artifactTimestamp,
  executionMarkdown,
  failuresOf,
  llmOrcView,
  writeArtifacts,
} from '../../../src/ensembles/llmorc/results.js';
import type { ConversationResult } from '../../../src/ensembles/result.js';
import { tempDir } from '../helpers.js';

const turn = (n: number, agent: string, output: Record<string, unknown>) => ({
  turn_number: n,
  agent_name: agent,
  input_data: {},
  output_data: output,
  execution_time: 0.1,
  timestamp: '2026-01-01T00:00:00.000Z',
});

const result = (extra: Partial<ConversationResult> = {}): ConversationResult => ({
  run_id: 'r1',
  final_state: {},
  conversation_history: [
    turn(1, 'a', { response: 'first' }),
    turn(2, 'a', { response: 'second' }),
    turn(3, 'b', { n: 1 }),
  ],
  turn_count: 3,
  completion_reason: 'completed',
  usage: { requests: 2, input_tokens: 10, output_tokens: 5, total_tokens: 15 },
  agent_execution_count: { a: 2, b: 1 },
  ...extra,
});

const at = new Date('2026-03-04T05:06:07.089Z');
const options = {
  ensemble: 'demo',
  agents: ['a', 'b', 'c'],
  input: 'go',
  startedAt: at,
  completedAt: new Date(at.getTime() + 1500),
};

describe('llm-orc results view', () => {
  it('gives each agent its latest response; agents that never ran are skipped', () => {
    const view = llmOrcView(result(), options);
    expect(view.results).toEqual({
      a: { response: 'second', status: 'success' },
      b: { response: '{"n":1}', status: 'success' },
      c: { response: null, status: 'skipped' },
    });
    expect(view.status).toBe('completed');
    expect(view.input).toEqual({ data: 'go' });
    expect(view.metadata).toMatchObject({
      duration: '1.50s',
      agents_used: 3,
      usage: {
        totals: {
          total_tokens: 15,
          total_input_tokens: 10,
          total_output_tokens: 5,
          agents_count: 3,
        },
      },
      run_id: 'r1',
      turn_count: 3,
    });
  });

  it('records failed agents with their error; a scheduler error fails the run', () => {
    const failed = result({
      completion_reason: 'error',
      error: { agent: 'c', message: 'boom', stderr: 'trace' },
    });
    const view = llmOrcView(failed, options);
    expect(view.results.c).toEqual({
      response: null,
      status: 'failed',
      error: 'boom',
      stderr: 'trace',
    });
    expect(view.status).toBe('completed_with_errors');
    expect(
      llmOrcView(
        result({ completion_reason: 'error', error: { agent: null, message: 'x' } }),
        options,
      ).status,
    ).toBe('failed');
    const listed = {
      ...result(),
      failures: [{ agent: 'b', message: 'bad' }],
    } as ConversationResult;
    expect([...failuresOf(listed).keys()]).toEqual(['b']);
  });

  it('writes execution.json and execution.md under .llm-orc/artifacts/<folder>/<ensemble>/<timestamp>/ with latest', async () => {
    const project = tempDir();
    const view = llmOrcView(result(), options);
    const dir = await writeArtifacts({
      projectDir: project,
      ensemble: 'demo',
      folder: 'testing',
      json: { ok: 1 },
      view,
      at,
    });
    expect(path.relative(project, dir)).toBe(
      path.join('.llm-orc', 'artifacts', 'testing', 'demo', artifactTimestamp(at)),
    );
    expect(JSON.parse(readFileSync(path.join(dir, 'execution.json'), 'utf8'))).toEqual({ ok: 1 });
    const md = readFileSync(path.join(dir, 'execution.md'), 'utf8');
    expect(md).toContain('# demo');
    expect(md).toContain('### a (success)');
    expect(md).toContain('second');
    expect(readlinkSync(path.join(path.dirname(dir), 'latest'))).toBe(path.basename(dir));
    const again = await writeArtifacts({
      projectDir: project,
      ensemble: 'demo',
      json: {},
      view,
      at: new Date(at.getTime() + 1000),
    });
    expect(existsSync(path.join(again, 'execution.md'))).toBe(true);
  });

  it('artifactTimestamp is YYYYMMDD-HHMMSS-mmm; markdown shows errors', () => {
    expect(artifactTimestamp(new Date(2026, 0, 2, 3, 4, 5, 6))).toBe('20260102-030405-006');
    const view = llmOrcView(result({ error: { agent: 'b', message: 'it broke' } }), options);
    expect(executionMarkdown(view)).toContain('Error: it broke');
  });
});
