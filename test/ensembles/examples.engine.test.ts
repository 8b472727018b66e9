import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { profilesForEnsemble } from '../../src/cli/commands/ensembles.js';
import { loadEnsemble } from '../../src/ensembles/load.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import { validateEnsembleText } from '../../src/ensembles/validate.js';
import { MemoryStore } from '../../src/stores/memory.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function runExample(file: string, store = new MemoryStore()) {
  const full = path.join(root, 'examples', 'ensembles', file);
  const profiles = await profilesForEnsemble(full, root);
  return runEnsemble(await loadEnsemble(full, { profileNames: profiles.names() }), {
    profiles,
    store,
  });
}

describe('examples/ensembles/llm-orc-features.yaml (fan_out, input_key, when, ensemble, dispatch, loop)', () => {
  it('runs offline to its documented outcome', async () => {
    const store = new MemoryStore();
    const result = await runExample('llm-orc-features.yaml', store);
    expect([result.completion_reason, result.turn_count, result.failed_agents]).toEqual([
      'completed',
      7,
      [],
    ]);
    const turns = Object.fromEntries(result.conversation_history.map((t) => [t.agent_name, t]));
    // fan_out over input_key: one instance per item, gathered in order.
    expect(result.final_state.shout).toEqual({
      results: [
        { item: 'apples', upper: 'APPLES', index: 0 },
        { item: 'pears', upper: 'PEARS', index: 1 },
        { item: 'plums', upper: 'PLUMS', index: 2 },
      ],
      total: 3,
    });
    // when: the true guard ran the sub-ensemble, the false one skipped alarm.
    expect(result.final_state.summary).toEqual({
      completion_reason: 'completed',
      turn_count: 1,
      final_state: { count: { words: 3 } },
      deliverable: '{"words":3}',
    });
    // dispatch: the ensemble gate named at run time.
    expect(turns.tally!.input_data.dispatch).toEqual({
      reference: '${gate.part}',
      target: 'parts/features-summary',
    });
    expect(result.final_state.tally).toEqual(result.final_state.summary);
    expect(turns.alarm).toMatchObject({ status: 'skipped', output_data: {} });
    expect(turns.alarm!.error).toMatch(/guard "when: \$\{gate.ok\} == false" is false/);
    // loop: until ${done} == true after 3 iterations, the draft carried along.
    expect(result.final_state.refine).toEqual({
      output: { draft: 'apples, pears, plums!!!', done: true },
      iterations: 3,
      terminated: 'until',
    });
    // Children are runs of their own in the same store.
    const children = (await store.listThreads())
      .map((thread) => thread.threadId)
      .filter((id) => id.endsWith('::main') && id.includes('/'));
    expect(children.sort()).toEqual([
      `${result.run_id}/refine/1/1::main`,
      `${result.run_id}/refine/1/2::main`,
      `${result.run_id}/refine/1/3::main`,
      `${result.run_id}/summary/1::main`,
      `${result.run_id}/tally/1::main`,
    ]);
  });
});

describe('examples/ensembles/adr005-iterative-analysis.yaml (the seed ADR-005 example, CEL conditions)', () => {
  it('runs offline: script and LLM agents converse, and the synthesis completes', async () => {
    const result = await runExample('adr005-iterative-analysis.yaml');
    expect([result.completion_reason, result.turn_count]).toEqual(['completed', 7]);
    expect(result.conversation_history.map((turn) => turn.agent_name)).toEqual([
      'data_extractor',
      'llm_analyzer',
      'data_extractor',
      'llm_analyzer',
      'user_clarification',
      'llm_analyzer',
      'final_synthesis',
    ]);
    // As the ADR's BDD test: "final_analysis" in the final state, synthesis complete.
    expect(result.final_state.final_analysis).toMatchObject({ synthesis_complete: true });
    expect(result.final_state.user_clarification).toMatchObject({
      question: 'Which quarters should I compare?',
    });
    expect(result.agent_execution_count).toEqual({
      data_extractor: 2,
      llm_analyzer: 3,
      user_clarification: 1,
      final_synthesis: 1,
    });
  });
});

describe('examples/ensembles/adr005-seed/iterative_analysis.yaml (ADR-005’s example, its Python conditions unchanged)', () => {
  const file = path.join(root, 'examples', 'ensembles', 'adr005-seed', 'iterative_analysis.yaml');

  it('keeps the Python conditions, validates with their CEL shown, and completes', async () => {
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(`condition: "context.get('needs_clarification', False)"`);
    expect(text).toContain(`condition: "context.get('clarification_provided', False)"`);
    const profiles = await profilesForEnsemble(file, root);
    const { issues, notes } = validateEnsembleText(text, {
      file,
      profileNames: profiles.names(),
    });
    expect(issues).toEqual([]);
    expect(notes?.map((note) => note.message)).toEqual([
      'ADR-005 Python condition, run as the CEL: (has(outputs.llm_analyzer.needs_clarification) ? outputs.llm_analyzer.needs_clarification : false)',
      'ADR-005 Python condition, run as the CEL: (has(outputs.user_clarification.clarification_provided) ? outputs.user_clarification.clarification_provided : false)',
    ]);
    const result = await runEnsemble(await loadEnsemble(file, { profileNames: profiles.names() }), {
      profiles,
      store: new MemoryStore(),
    });
    // ADR-005's executor ends here too: nothing is ready any more (llm_analyzer's dependency
    // has triggered it max_executions times, data_extractor used its max_turns).
    expect([result.completion_reason, result.turn_count, result.failed_agents]).toEqual([
      'completed',
      6,
      [],
    ]);
    expect(result.conversation_history.map((turn) => turn.agent_name)).toEqual([
      'data_extractor',
      'llm_analyzer',
      'data_extractor',
      'llm_analyzer',
      'user_clarification',
      'final_synthesis',
    ]);
    expect(result.final_state.final_synthesis).toMatchObject({ synthesis_complete: true });
  });
});
