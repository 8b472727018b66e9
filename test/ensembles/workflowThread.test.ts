import { describe, expect, it } from 'vitest';
import { createConversationState } from '../../src/ensembles/state.js';
import { MemoryStore } from '../../src/stores/memory.js';
import {
  mainThreadId,
  WorkflowThread,
  workflowStateFromJSON,
} from '../../src/ensembles/workflowThread.js';

describe('WorkflowThread', () => {
  it('keeps main and named sub-threads under the run id as chat', async () => {
    const store = new MemoryStore();
    const workflow = await WorkflowThread.create(store, 'run-1', {
      conversation: createConversationState(),
    });
    await workflow.append('analyzer', [{ id: 'u1', item: { role: 'user', content: 'hi' } }]);
    expect(workflow.threadId('analyzer')).toBe('run-1::analyzer');
    expect(mainThreadId('run-1')).toBe('run-1::main');
    const threads = await store.listThreads({ chatId: 'run-1' });
    expect(threads.map((thread) => thread.threadId)).toEqual(['run-1::analyzer', 'run-1::main']);
    expect(await workflow.read('analyzer')).toHaveLength(1);
  });

  it('saves the execution state in the main thread metadata, with a checkpoint per save', async () => {
    const store = new MemoryStore();
    const workflow = await WorkflowThread.create(store, 'run-2', {
      conversation: createConversationState(),
      data: { status: 'running' },
    });
    const next = workflow.state;
    next.execution.currentStep = { step: 1, agents: ['a', 'b'], finished: { a: { ok: true } } };
    next.execution.nextSteps = ['b'];
    next.conversation.turn_count = 1;
    await workflow.save(next, 'agent-a');
    const record = await store.getThread('run-2::main');
    expect((record!.metadata.workflow as { execution: unknown }).execution).toEqual(next.execution);
    const checkpoints = await store.listCheckpoints('run-2');
    expect(checkpoints.map((checkpoint) => checkpoint.label)).toEqual(['created', 'agent-a']);
  });

  it('loads back from the store (how a run resumes)', async () => {
    const store = new MemoryStore();
    const workflow = await WorkflowThread.create(store, 'run-3', {
      conversation: createConversationState({ seed: 1 }),
    });
    const next = workflow.state;
    next.execution.stepHistory.push({ step: 1, agents: ['a'] });
    await workflow.save(next);
    const loaded = await WorkflowThread.load(store, 'run-3');
    expect(loaded!.state).toEqual(next);
    expect(await WorkflowThread.load(store, 'missing')).toBeNull();
  });

  it('refuses to create a run id twice and rejects state of another schema version', async () => {
    const store = new MemoryStore();
    await WorkflowThread.create(store, 'run-4', { conversation: createConversationState() });
    await expect(
      WorkflowThread.create(store, 'run-4', { conversation: createConversationState() }),
    ).rejects.toThrow(/already exists/);
    expect(() => workflowStateFromJSON({ schemaVersion: 99 }, 'run-4')).toThrow(/schemaVersion 1/);
  });

  it('truncates a sub-thread back to a version', async () => {
    const store = new MemoryStore();
    const workflow = await WorkflowThread.create(store, 'run-5', {
      conversation: createConversationState(),
    });
    await workflow.append('w', [{ id: '1', item: { role: 'user', content: 'a' } }]);
    await workflow.append('w', [{ id: '2', item: { role: 'user', content: 'b' } }]);
    await workflow.truncate('w', 1);
    expect(await workflow.version('w')).toBe(1);
  });
});
