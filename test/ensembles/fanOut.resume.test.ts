import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '@openai/agents-core';
import { runEnsemble } from '../../src/ensembles/run.js';
import { WorkflowThread } from '../../src/ensembles/workflowThread.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { comparable, ensembleFrom, tempDir, writeScript } from './helpers.js';

/** Answers `{ said: <item> }`; with `gate`, an item named `slow` waits until the call is aborted. */
class ItemModel extends ScriptedModel {
  /** The items answered so far. */
  readonly answered: string[] = [];

  constructor(private readonly gate: boolean) {
    super(
      [
        (request) =>
          JSON.stringify({ said: /Task: (\w+)/.exec(JSON.stringify(request.input))?.[1] }),
      ],
      { repeatLast: true },
    );
  }

  override async getResponse(request: ModelRequest) {
    if (this.gate && JSON.stringify(request.input).includes('Task: slow')) {
      await new Promise((_resolve, reject) => {
        const stop = () => reject(new Error('aborted'));
        if (request.signal?.aborted) stop();
        request.signal?.addEventListener('abort', stop, { once: true });
      });
    }
    const response = await super.getResponse(request);
    this.answered.push(/Task: (\w+)/.exec(JSON.stringify(request.input))?.[1] ?? '');
    return response;
  }
}

function fanEnsemble(dir: string) {
  const list = writeScript(
    dir,
    'list.js',
    `reply({ success: true, data: { items: ['fast', 'slow', 'quick'] } });`,
  );
  return ensembleFrom(
    `name: fan\nagents:\n  - { name: list, script: ${list} }\n` +
      `  - { name: say, model_profile: p, depends_on: [list], fan_out: true, input_key: items }\n`,
    dir,
  );
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached in time');
}

describe('fan_out LLM agents on resume', () => {
  it('cuts what an interrupted step left in each instance sub-thread, so resuming does not repeat it', async () => {
    const dir = tempDir();
    const store = new MemoryStore();
    const controller = new AbortController();
    const model = new ItemModel(true);
    const interrupted = runEnsemble(fanEnsemble(dir), {
      store,
      runId: 'fan-1',
      signal: controller.signal,
      createModel: () => model,
    });
    // Instances 0 and 2 finish their turn; instance 1 hangs: interrupt the run then.
    await waitFor(async () => model.answered.includes('fast') && model.answered.includes('quick'));
    controller.abort();
    await expect(interrupted).rejects.toMatchObject({ code: 'ABORTED' });
    const saved = await WorkflowThread.load(store, 'fan-1');
    expect(saved!.state.execution.currentStep?.inputs.say?.fan_out_versions).toEqual([0, 0, 0]);
    // Staged items are written with the head that records their agent's outcome: the unfinished
    // agent wrote nothing.
    expect(await store.readItems('fan-1::say#0')).toHaveLength(0);
    // What a store without appendMany can be left with by a crash between writing an instance's
    // items and the head: items beyond the versions the step recorded. Resume cuts them.
    await store.append(
      'fan-1::say#0',
      [
        { id: 'say#0-0', item: { role: 'user', content: 'Task: fast' } },
        { id: 'say#0-1', item: { role: 'user', content: 'left by a crash' } },
      ],
      { expectedVersion: 0, chatId: 'fan-1' },
    );

    const resumed = await runEnsemble(fanEnsemble(dir), {
      store,
      runId: 'fan-1',
      resume: true,
      createModel: () => new ItemModel(false),
    });
    expect((resumed.final_state.say as { results: unknown[] }).results).toEqual([
      { said: 'fast' },
      { said: 'slow' },
      { said: 'quick' },
    ]);
    // One user message and one reply per instance: nothing of the interrupted step is repeated.
    for (const index of [0, 1, 2]) {
      const items = await store.readItems(`fan-1::say#${index}`);
      expect(items.map((entry) => (entry.item as { role?: string }).role)).toEqual([
        'user',
        'assistant',
      ]);
    }
    const baseline = await runEnsemble(fanEnsemble(tempDir()), {
      store: new MemoryStore(),
      createModel: () => new ItemModel(false),
    });
    expect(comparable(resumed)).toEqual(comparable(baseline));
  });

  it('records instance versions at the start of each step, so a second execution keeps the first', async () => {
    const dir = tempDir();
    const store = new MemoryStore();
    const list = writeScript(
      dir,
      'list.js',
      `reply({ success: true, data: { items: ['a', 'b'] } });`,
    );
    const ensemble = ensembleFrom(
      `name: fan2\nagents:\n  - { name: list, script: ${list}, conversation: { max_turns: 2 } }\n` +
        `  - { name: say, model_profile: p, fan_out: true, input_key: items, conversation: { max_turns: 2 },\n` +
        `      depends_on: [{ agent_name: list, max_executions: 2 }] }\n`,
      dir,
    );
    const result = await runEnsemble(ensemble, {
      store,
      runId: 'fan-2',
      createModel: () => new ItemModel(false),
    });
    expect(result.agent_execution_count).toEqual({ list: 2, say: 2 });
    // Each instance kept its conversation over both executions (2 items per execution).
    expect(await store.readItems('fan-2::say#0')).toHaveLength(4);
    expect(await store.readItems('fan-2::say#1')).toHaveLength(4);
  });
});
