import { describe, expect, it } from 'vitest';
import type { ConversationTurn } from '../../src/ensembles/runState.js';
import { createConversationState, headOf, recordTurn } from '../../src/ensembles/state.js';
import {
  mainThreadId,
  turnFromItem,
  turnItem,
  WorkflowThread,
  workflowStateFromJSON,
} from '../../src/ensembles/workflowThread.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { runningData } from './helpers.js';

function turn(n: number, agent = 'a'): ConversationTurn {
  return {
    turn_number: n,
    agent_name: agent,
    input_data: { input: 'task', context: {} },
    output_data: { n },
    execution_time: 0.1,
    timestamp: '2026-01-01T00:00:00.000Z',
  };
}

/** Commits `count` turns one at a time, as a run does. */
async function commitTurns(workflow: WorkflowThread, count: number): Promise<void> {
  const conversation = workflow.conversation();
  for (let i = 0; i < count; i++) {
    const { turn_number: _n, ...rest } = turn(conversation.turn_count + 1);
    recordTurn(conversation, rest);
    const state = workflow.state;
    state.conversation = headOf(conversation);
    state.execution.step += 1;
    await workflow.commit(state, [conversation.conversation_history.at(-1)!], `turn-${i}`);
  }
}

describe('WorkflowThread', () => {
  it('keeps main and named sub-threads under the run id as chat', async () => {
    const store = new MemoryStore();
    const workflow = await WorkflowThread.create(store, 'run-1', {
      conversation: createConversationState(),
      data: runningData(),
    });
    await workflow.append('analyzer', [{ id: 'u1', item: { role: 'user', content: 'hi' } }]);
    expect(workflow.threadId('analyzer')).toBe('run-1::analyzer');
    expect(mainThreadId('run-1')).toBe('run-1::main');
    const threads = await store.listThreads({ chatId: 'run-1' });
    expect(threads.map((thread) => thread.threadId)).toEqual(['run-1::analyzer', 'run-1::main']);
    expect(await workflow.read('analyzer')).toHaveLength(1);
  });

  it('saves the head in the main thread metadata, with a checkpoint per save', async () => {
    const store = new MemoryStore();
    const workflow = await WorkflowThread.create(store, 'run-2', {
      conversation: createConversationState(),
      data: runningData(),
    });
    const next = workflow.state;
    next.execution.currentStep = {
      step: 1,
      agents: ['a', 'b'],
      finished: { a: { output_data: { ok: true }, execution_time: 0, timestamp: 't' } },
      inputs: {},
    };
    await workflow.save(next, 'agent-a');
    const record = await store.getThread('run-2::main');
    expect((record!.metadata.workflow as { execution: unknown }).execution).toEqual(next.execution);
    const checkpoints = await store.listCheckpoints('run-2');
    expect(checkpoints.map((checkpoint) => checkpoint.label)).toEqual(['created', 'agent-a']);
  });

  it('commits turns as items of the main thread and loads them back in order', async () => {
    const store = new MemoryStore();
    const workflow = await WorkflowThread.create(store, 'run-3', {
      conversation: createConversationState({ seed: 1 }),
      data: runningData(),
    });
    await commitTurns(workflow, 3);
    expect((await store.getThread('run-3::main'))!.version).toBe(3);
    const loaded = await WorkflowThread.load(store, 'run-3');
    expect(loaded!.state).toEqual(workflow.state);
    expect(loaded!.history.map((t) => t.output_data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(loaded!.conversation().accumulated_context).toEqual({ seed: 1, a: { n: 3 } });
    expect(await WorkflowThread.load(store, 'missing')).toBeNull();
  });

  it('a save writes the same amount at turn 300 as at turn 3 (the head does not hold the history)', async () => {
    const store = new MemoryStore();
    const sizes: number[] = [];
    const setMetadata = store.setMetadata.bind(store);
    store.setMetadata = async (id, metadata, chat) => {
      sizes.push(JSON.stringify(metadata).length);
      return setMetadata(id, metadata, chat);
    };
    const workflow = await WorkflowThread.create(store, 'run-flat', {
      conversation: createConversationState(),
      data: runningData(),
    });
    await commitTurns(workflow, 300);
    // Only the digits of the counters grow.
    expect(sizes.at(-1)! - sizes[3]!).toBeLessThan(20);
  });

  it('cuts turns a crash appended beyond the head, so the open step commits them again', async () => {
    const store = new MemoryStore();
    const workflow = await WorkflowThread.create(store, 'run-4', {
      conversation: createConversationState(),
      data: runningData(),
    });
    await commitTurns(workflow, 2);
    // The crash: the turn was appended, the head was not saved.
    await store.append('run-4::main', [turnItem('run-4', turn(3))], { expectedVersion: 2 });
    // A reader (another process while the run is live) sees the head's turns and writes nothing.
    const read = await WorkflowThread.load(store, 'run-4');
    expect(read!.history).toHaveLength(2);
    expect((await store.getThread('run-4::main'))!.version).toBe(3);
    // The resumer, holding the run's lease, cuts them.
    const loaded = await WorkflowThread.load(store, 'run-4', { repair: true });
    expect(loaded!.history).toHaveLength(2);
    expect((await store.getThread('run-4::main'))!.version).toBe(2);
  });

  it('refuses to create a run id twice, a commit whose head miscounts, and unknown versions', async () => {
    const store = new MemoryStore();
    const workflow = await WorkflowThread.create(store, 'run-5', {
      conversation: createConversationState(),
      data: runningData(),
    });
    await expect(
      WorkflowThread.create(store, 'run-5', {
        conversation: createConversationState(),
        data: runningData(),
      }),
    ).rejects.toThrow(/already exists/);
    await expect(workflow.commit(workflow.state, [turn(1)], 'x')).rejects.toThrow(
      /does not count its turns/,
    );
    expect(() => workflowStateFromJSON({ schemaVersion: 99 }, 'run-5')).toThrow(
      /schemaVersion 1 and 2/,
    );
  });

  it('refuses a main thread whose items are not the turns the head counts', async () => {
    const store = new MemoryStore();
    const workflow = await WorkflowThread.create(store, 'run-6', {
      conversation: createConversationState(),
      data: runningData(),
    });
    await commitTurns(workflow, 1);
    await store.rollback('run-6::main', 0);
    await expect(WorkflowThread.load(store, 'run-6')).rejects.toThrow(
      /counts 1 turns but the main thread has 0/,
    );
    expect(() =>
      turnFromItem('r', { id: 'x', item: { role: 'user', content: 'not a turn' } }, 0),
    ).toThrow(/item 0 of the main thread is not turn 1/);
    expect(() => turnFromItem('r', turnItem('r', turn(2)), 0)).toThrow(/turn 2/);
  });

  it('truncates a sub-thread back to a version, also in its cache', async () => {
    const store = new MemoryStore();
    const workflow = await WorkflowThread.create(store, 'run-7', {
      conversation: createConversationState(),
      data: runningData(),
    });
    await workflow.append('w', [{ id: '1', item: { role: 'user', content: 'a' } }]);
    expect(await workflow.read('w')).toHaveLength(1);
    await workflow.append('w', [{ id: '2', item: { role: 'user', content: 'b' } }]);
    expect(await workflow.read('w')).toHaveLength(2);
    await workflow.truncate('w', 1);
    expect(await workflow.version('w')).toBe(1);
    expect((await workflow.read('w')).map((entry) => entry.id)).toEqual(['1']);
    expect(await store.readItems('run-7::w')).toHaveLength(1);
  });
});

describe('WorkflowThread: single writer and migration details', () => {
  it('a second writer appending turns at the same position is refused by the store (ConflictError)', async () => {
    const store = new MemoryStore();
    const first = await WorkflowThread.create(store, 'race', {
      conversation: createConversationState(),
      data: runningData(),
    });
    const second = await WorkflowThread.load(store, 'race');
    await commitTurns(first, 1);
    await expect(commitTurns(second!, 1)).rejects.toMatchObject({ code: 'THREAD_CONFLICT' });
  });

  it('migrating a v1 state whose history was already appended does not append it twice', async () => {
    const store = new MemoryStore();
    const v1 = {
      schemaVersion: 1,
      execution: { stepHistory: [{ step: 1, agents: ['a'] }], currentStep: null, nextSteps: [] },
      conversation: {
        turn_count: 1,
        agent_execution_count: { a: 1 },
        accumulated_context: { a: { n: 1 } },
        conversation_history: [turn(1)],
      },
      data: runningData(),
    };
    await store.setMetadata('m::main', { kind: 'workflow', workflow: v1 }, 'm');
    await WorkflowThread.load(store, 'm');
    const again = await WorkflowThread.load(store, 'm');
    expect((await store.getThread('m::main'))!.version).toBe(1);
    expect(again!.history).toEqual([turn(1)]);
    expect(again!.state.execution).toEqual({ step: 1, currentStep: null });
  });

  it('reads a sub-thread once from the store, then from what it wrote', async () => {
    const store = new MemoryStore();
    const workflow = await WorkflowThread.create(store, 'cache', {
      conversation: createConversationState(),
      data: runningData(),
    });
    let reads = 0;
    const readItems = store.readItems.bind(store);
    store.readItems = async (...args) => {
      reads += 1;
      return readItems(...args);
    };
    await workflow.read('w');
    await workflow.append('w', [{ id: '1', item: { role: 'user', content: 'a' } }]);
    expect(await workflow.read('w')).toHaveLength(1);
    expect(await workflow.version('w')).toBe(1);
    expect(reads).toBe(1);
  });

  it('view is the cached sub-thread itself: appends and truncations show in it, nothing copies it', async () => {
    const workflow = await WorkflowThread.create(new MemoryStore(), 'view', {
      conversation: createConversationState(),
      data: runningData(),
    });
    const view = await workflow.view('w');
    expect(view).toHaveLength(0);
    await workflow.append('w', [
      { id: '1', item: { role: 'user', content: 'a' } },
      { id: '2', item: { role: 'user', content: 'b' } },
    ]);
    expect(await workflow.view('w')).toBe(view);
    expect(view.map((entry) => entry.id)).toEqual(['1', '2']);
    await workflow.truncate('w', 1);
    expect(view.map((entry) => entry.id)).toEqual(['1']);
    // read() still hands out a copy the caller may change.
    const copy = await workflow.read('w');
    copy.pop();
    expect(view).toHaveLength(1);
  });

  it('save copies the head it is given; saveSnapshot and commitSnapshot keep the snapshot as is', async () => {
    const store = new MemoryStore();
    const workflow = await WorkflowThread.create(store, 'snap', {
      conversation: createConversationState(),
      data: runningData(),
    });
    const copied = workflow.state;
    await workflow.save(copied, 'a');
    copied.data.input = 'changed after save';
    expect(workflow.state.data.input).toBe('task');

    const snapshot = workflow.state;
    snapshot.data.input = 'snapshot';
    await workflow.saveSnapshot(snapshot, 'b', false);
    expect(workflow.state.data.input).toBe('snapshot');
    expect((await store.listCheckpoints('snap')).map((c) => c.label)).toEqual(['created', 'a']);

    const next = workflow.state;
    next.conversation.turn_count = 1;
    await workflow.append('w', [{ id: '1', item: { role: 'user', content: 'a' } }]);
    await workflow.commitSnapshot(next, [turn(1)], 'turn-1');
    expect(workflow.history).toEqual([turn(1)]);
    // A commit records no store checkpoint: its turn item carries the sub-threads' versions.
    expect((await store.listCheckpoints('snap')).map((c) => c.label)).toEqual(['created', 'a']);
    const [item] = await store.readItems('snap::main');
    expect((item!.item as { providerData?: unknown }).providerData).toEqual({
      ensembleTurn: turn(1),
      threads: { w: 1 },
    });
    const loaded = await WorkflowThread.load(store, 'snap');
    expect(loaded!.state).toEqual(next);
    await expect(workflow.commitSnapshot(workflow.state, [turn(3)], 'x')).rejects.toThrow(
      /does not count its turns/,
    );
  });
});
