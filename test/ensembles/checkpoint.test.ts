import { describe, expect, it } from 'vitest';
import { RunCheckpoints } from '../../src/ensembles/checkpoint.js';
import { createBook } from '../../src/ensembles/scheduler.js';
import { createConversationState } from '../../src/ensembles/state.js';
import { WorkflowThread } from '../../src/ensembles/workflowThread.js';
import { MemoryStore } from '../../src/stores/memory.js';

async function checkpoints(store = new MemoryStore()) {
  const workflow = await WorkflowThread.create(store, 'run', {
    conversation: createConversationState(),
    data: { status: 'running', ensemble: 'e', input: '', book: createBook(), elapsed_ms: 40 },
  });
  return { store, workflow, checkpoints: new RunCheckpoints(workflow) };
}

describe('RunCheckpoints', () => {
  it('saves snapshots in the order asked, with the elapsed time of every process', async () => {
    const { workflow, checkpoints: cp } = await checkpoints();
    cp.head.data.input = 'first';
    const first = cp.save('one', false);
    cp.head.data.input = 'second';
    const second = cp.save('two');
    await Promise.all([first, second]);
    expect(workflow.state.data.input).toBe('second');
    expect(workflow.state.data.elapsed_ms).toBeGreaterThanOrEqual(40);
    expect(cp.elapsedMs()).toBeGreaterThanOrEqual(40);
  });

  it('records a store checkpoint only when asked', async () => {
    const { store, checkpoints: cp } = await checkpoints();
    await cp.save('quiet', false);
    await cp.save('loud');
    expect((await store.listCheckpoints('run')).map((c) => c.label)).toEqual(['created', 'loud']);
  });

  it('a failed save rejects, and so does every later save and flush (never swallowed)', async () => {
    const store = new MemoryStore();
    const { checkpoints: cp } = await checkpoints(store);
    store.setMetadata = async () => {
      throw new Error('disk full');
    };
    await expect(cp.save('x')).rejects.toThrow('disk full');
    await expect(cp.flush()).rejects.toThrow('disk full');
  });
});
