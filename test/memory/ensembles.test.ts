/**
 * `memory:` in ensemble YAML: an LLM agent of a run for user u1 recalls u1's earlier runs and
 * sees the working memory u1's earlier run saved; u2 gets neither; a run without userId has no
 * memory; the recall block is model input only (not in the agent's sub-thread).
 */
import type { ModelRequest } from '@openai/agents-core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEnsemble } from '../../src/ensembles/load.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import { WORKING_MEMORY_TOOL } from '../../src/memory/working.js';
import { lastUserText } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { recalledIn } from '../../examples/memory/remember.js';

const YAML = `name: helper
memory:
  embedder: hashed
  recall: { top_k: 3 }
  working: true
agents:
  - name: assistant
    model_profile: p
    system_prompt: Help the user.
`;

function instructionsOf(request: ModelRequest): string {
  return String(request.systemInstructions ?? '');
}

function scripted(): ScriptedModel {
  return new ScriptedModel(
    (request) => {
      const text = lastUserText(request);
      const toolDone = Array.isArray(request.input)
        ? request.input.some((i) => (i as { type?: string }).type === 'function_call_result')
        : false;
      const remember = /remember: (.*)/.exec(text);
      if (remember && !toolDone)
        return { tool: WORKING_MEMORY_TOOL, args: { content: remember[1] } };
      return 'Noted.';
    },
    { name: 'm', repeatLast: true },
  );
}

async function runFor(store: ThreadStore, model: ScriptedModel, input: string, userId?: string) {
  const ensemble = parseEnsemble(YAML, { file: 'helper.yaml' });
  return runEnsemble(ensemble, {
    store,
    input,
    createModel: () => model,
    ...(userId !== undefined ? { userId } : {}),
  });
}

describe.each([
  ['the memory store', () => new MemoryStore()],
  [
    'SQLite',
    () =>
      new SqliteStore({ path: path.join(mkdtempSync(path.join(tmpdir(), 'ens-mem-')), 'c.db') }),
  ],
])('ensemble memory on %s', (_name, open) => {
  it('recalls the user’s earlier runs and carries working memory, per user', async () => {
    const store = open();
    const model = scripted();
    await runFor(store, model, 'My favourite colour is teal. remember: likes teal', 'u1');

    const run = await runFor(store, model, 'Which colour do I like?', 'u1');
    const last = model.calls.at(-1)!.request;
    expect(recalledIn(last)).toContain('My favourite colour is teal');
    expect(instructionsOf(last)).toContain('<working-memory>');
    expect(instructionsOf(last)).toContain('likes teal');
    // Model input only: the sub-thread holds the task and the answer.
    const items = await store.readItems(`${run.run_id}::assistant`);
    expect(JSON.stringify(items)).not.toContain('recalled-memory');

    await runFor(store, model, 'Which colour do I like?', 'u2');
    const other = model.calls.at(-1)!.request;
    expect(recalledIn(other)).toBeUndefined();
    expect(instructionsOf(other)).not.toContain('likes teal');

    await runFor(store, model, 'Which colour do I like?');
    const anonymous = model.calls.at(-1)!.request;
    expect(recalledIn(anonymous)).toBeUndefined();
    expect(instructionsOf(anonymous)).not.toContain('<working-memory>');
    await store.close();
  });
});

describe('ensemble memory configuration', () => {
  it('names the bad field of memory: in the YAML', () => {
    expect(() =>
      parseEnsemble(YAML.replace('top_k: 3', 'top_k: -1'), { file: 'bad.yaml' }),
    ).toThrow(/memory.*recall.*top_k/s);
    expect(() =>
      parseEnsemble(YAML.replace('working: true', 'wrking: true'), { file: 'bad.yaml' }),
    ).toThrow(/wrking/);
  });
});
