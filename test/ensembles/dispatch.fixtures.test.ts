// Our own ensembles under test/fixtures/dispatch, exercising what llm-orc's agentic-serving
// ensembles use dispatch for: a serving skeleton routed by a script or a guarded model decider,
// two dispatched slots, a router inside a round, and that round as a loop body.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { EnsembleEvent } from '../../src/ensembles/events.js';
import { loadEnsemble } from '../../src/ensembles/load.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/dispatch');

async function run(name: string, input: string, model?: string) {
  const events: EnsembleEvent[] = [];
  const result = await runEnsemble(await loadEnsemble(path.join(dir, `${name}.yaml`)), {
    input,
    store: new MemoryStore(),
    runId: name,
    onEvent: (event) => events.push(event),
    ...(model ? { createModel: () => new ScriptedModel([model]) } : {}),
  });
  const dispatched = events.flatMap((event) =>
    event.type === 'agent_dispatched' ? [`${event.agent} -> ${event.target}`] : [],
  );
  return { result, dispatched };
}

describe('fixture ensembles with dispatch', () => {
  it('serving: a structural route dispatches without the decider', async () => {
    const { result, dispatched } = await run('serving', 'build a parser');
    expect(result.completion_reason).toBe('completed');
    expect(result.failed_agents).toEqual([]);
    expect(dispatched).toEqual(['seat -> seat-build']);
    expect(result.conversation_history.find((t) => t.agent_name === 'decide')!.status).toBe(
      'skipped',
    );
    expect(result.final_state.emit).toEqual({
      completion: 'completed',
      outcome: { seat: 'build', received: 'turn: build a parser' },
    });
  });

  it('serving: otherwise the model decides, and the seat follows its pick', async () => {
    const { result, dispatched } = await run(
      'serving',
      'what is a monad',
      '{"target": "seat-explain"}',
    );
    expect(dispatched).toEqual(['seat -> seat-explain']);
    expect(result.final_state.emit).toEqual({
      completion: 'completed',
      outcome: { seat: 'explain', received: 'turn: what is a monad' },
    });
  });

  it('gen-review: two slots, each dispatched to its own ensemble, review after gen', async () => {
    const { result, dispatched } = await run('gen-review', 'sort a list');
    expect(dispatched).toEqual(['gen -> seat-build', 'review -> seat-explain']);
    expect(result.final_state.gen).toMatchObject({
      final_state: { answer: { seat: 'build', received: 'slot: sort a list' } },
    });
    // review has no input_key: its child gets the ensemble's task.
    expect(result.final_state.review).toMatchObject({
      final_state: { answer: { seat: 'explain', received: 'sort a list' } },
    });
  });

  it('build-round: the router picks the round from its input', async () => {
    const fresh = await run('build-round', 'add two numbers');
    expect(fresh.dispatched).toEqual(['dispatch -> round-fresh']);
    expect(fresh.result.final_state.unwrap).toEqual({
      accept: false,
      retry_input: 'HELD add two numbers',
    });
    const held = await run('build-round', 'HELD add two numbers');
    expect(held.dispatched).toEqual(['dispatch -> round-held']);
    expect(held.result.final_state.unwrap).toEqual({
      accept: true,
      code: 'code for (HELD add two numbers)',
    });
  });

  it('build-gated: a loop whose body dispatches retries until a round accepts', async () => {
    const { result } = await run('build-gated', 'add two numbers');
    expect(result.completion_reason).toBe('completed');
    expect(result.final_state.round).toEqual({
      output: { accept: true, code: 'code for (HELD add two numbers)' },
      iterations: 2,
      terminated: 'until',
    });
  });
});
