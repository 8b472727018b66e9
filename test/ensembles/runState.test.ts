import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseEnsemble } from '../../src/ensembles/load.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import {
  conversationResultSchema,
  RUN_STATE_SCHEMA_VERSION,
  workflowStateSchema,
} from '../../src/ensembles/runState.js';
import { readEnsembleRun } from '../../src/ensembles/savedRun.js';
import { WorkflowThread, workflowStateFromJSON } from '../../src/ensembles/workflowThread.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import type { ThreadItem } from '../../src/stores/item.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { comparable, tempDir, writeCounter } from './helpers.js';

const fixtures = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/ensemble-run',
);
const read = (name: string) => JSON.parse(readFileSync(path.join(fixtures, name), 'utf8'));

/** A store holding a fixture as its saved run `fixture-run`. */
async function storeWith(name: string): Promise<MemoryStore> {
  const fixture = read(name);
  const workflow = fixture.workflow ?? fixture;
  const items: ThreadItem[] = fixture.mainThreadItems ?? [];
  const store = new MemoryStore();
  if (items.length)
    await store.append('fixture-run::main', items, { expectedVersion: 0, chatId: 'fixture-run' });
  await store.setMetadata('fixture-run::main', { kind: 'workflow', workflow }, 'fixture-run');
  return store;
}

/** The ensemble the fixtures were written by (see the fixture's `data.ensemble`). */
function fixtureEnsemble() {
  const dir = tempDir();
  const counter = writeCounter(dir, 'count.js');
  return parseEnsemble(
    `name: fixture
agents:
  - name: writer
    model_profile: p
    depends_on: [{ agent_name: counter, condition: 'state.counter.n < 2', max_executions: 3 }]
    conversation: { max_turns: 3, triggers_conversation: true }
  - name: counter
    script: ${counter}
    depends_on: [{ agent_name: writer, max_executions: 3 }]
    conversation: { max_turns: 3 }
`,
    { baseDir: dir },
  );
}

const drafts = () => new ScriptedModel(['{"draft":1}', '{"draft":2}', '{"draft":3}']);

describe('saved run state: versions and fixtures', () => {
  it('this build writes schemaVersion 2, and the v2 fixtures match its schema as frozen', () => {
    expect(RUN_STATE_SCHEMA_VERSION).toBe(2);
    for (const name of ['v2-running.json', 'v2-finished.json']) {
      const parsed = workflowStateSchema.safeParse(read(name).workflow);
      expect(parsed.success, name).toBe(true);
    }
  });

  it('loads a finished v2 run with its history from the main thread', async () => {
    const run = await readEnsembleRun(await storeWith('v2-finished.json'), 'fixture-run');
    expect(run).toMatchObject({ ensemble: 'fixture', status: 'finished', turnCount: 4 });
    expect(conversationResultSchema.parse(run!.result).conversation_history).toHaveLength(4);
    expect(run!.result!.conversation_history.map((turn) => turn.agent_name)).toEqual([
      'writer',
      'counter',
      'writer',
      'counter',
    ]);
  });

  it('resumes a running v2 run to the result an uninterrupted run gives', async () => {
    const ensemble = fixtureEnsemble();
    const fresh = await runEnsemble(ensemble, {
      input: 'task',
      createModel: drafts,
      runId: 'fixture-run',
    });
    const resumed = await runEnsemble(ensemble, {
      store: await storeWith('v2-running.json'),
      resume: 'fixture-run',
      createModel: drafts,
    });
    expect(comparable(resumed)).toEqual(comparable(fresh));
  });

  it('migrates a running v1 run: appends its history as turns and resumes it', async () => {
    const store = await storeWith('v1-running.json');
    const workflow = await WorkflowThread.load(store, 'fixture-run');
    expect(workflow!.state.schemaVersion).toBe(2);
    expect(workflow!.history.map((turn) => turn.agent_name)).toEqual(['writer']);
    expect((await store.getThread('fixture-run::main'))!.version).toBe(1);
    expect(workflow!.state.conversation.latest_outputs).toEqual({ writer: { draft: 1 } });
    expect(workflow!.state.conversation.model_requests).toEqual({ writer: 1 });
    const resumed = await runEnsemble(fixtureEnsemble(), {
      store,
      resume: 'fixture-run',
      createModel: drafts,
    });
    const fresh = await runEnsemble(fixtureEnsemble(), { input: 'task', createModel: drafts });
    expect(comparable(resumed)).toEqual(comparable({ ...fresh, run_id: 'fixture-run' }));
  });

  it('reads a finished v1 run as finished, with its stored result', async () => {
    const v1 = read('v1-finished.json');
    const run = await readEnsembleRun(await storeWith('v1-finished.json'), 'fixture-run');
    expect(run!.status).toBe('finished');
    expect(run!.result!.conversation_history).toEqual(v1.conversation.conversation_history);
    expect(run!.result!.completion_reason).toBe(v1.data.result.completion_reason);
  });

  const invalid = readdirSync(fixtures).filter((name) => name.startsWith('invalid-'));
  it('has invalid fixtures', () => expect(invalid.length).toBeGreaterThanOrEqual(8));
  for (const name of invalid) {
    it(`refuses ${name} with a message naming the problem`, async () => {
      const { expect: expected } = read(name);
      const store = await storeWith(name);
      await expect(WorkflowThread.load(store, 'fixture-run')).rejects.toMatchObject({
        code: 'SERIALIZATION_ERROR',
        message: expect.stringContaining(expected),
      });
    });
  }

  it('names the run and the remedy in schema errors', () => {
    expect(() => workflowStateFromJSON(null, 'r9')).toThrow(
      /ensemble run "r9" is invalid: .*Start a new run/,
    );
  });
});
