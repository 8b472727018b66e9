/**
 * Two `CallRuns` on one log, as two servers of a cluster on one Redis: the one that did not start
 * a call answers its state, follows its events after a `Last-Event-ID`, and cancels it through
 * the log's cancel channel.
 */
import { describe, expect, it } from 'vitest';
import { lastUserText } from '../../../src/models/requestText.js';
import { ScriptedModel } from '../../../src/models/scriptedModel.js';
import { inProcessExecutor } from '../../../src/server/executor.js';
import { CallRuns } from '../../../src/server/runs/callRuns.js';
import { MemoryCallRunLog } from '../../../src/server/runs/runLog.js';
import { Agency } from '../../../src/agency/agency.js';
import { Agent } from '../../../src/agency/agent.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';
import { GatedModel, testRegistry } from '../helpers.js';

function twoServers() {
  const store = new MemoryStore();
  const model = new GatedModel(
    new ScriptedModel((request) => `done: ${lastUserText(request)}`, { name: 'gated' }),
  );
  const agent = new Agent({ name: 'Solo', instructions: 'Answer.', model });
  const agency = new Agency({
    name: 'gated',
    entryPoints: [agent],
    threads: new ThreadManager({ store }),
  });
  const registry = testRegistry({ agencies: [agency], store, demo: false });
  const log = new MemoryCallRunLog();
  const calls = inProcessExecutor(registry).calls;
  return { model, a: new CallRuns(calls, log), b: new CallRuns(calls, log) };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

describe('background calls on a shared log', () => {
  it('another server follows a call after Last-Event-ID and sees it complete', async () => {
    const { model, a, b } = twoServers();
    const { summary, done } = await a.start('gated', 'hi', { chatId: 'shared-1' });
    expect((await b.state(summary.runId))?.status).toBe('running');
    await model.called.promise;
    const early = await collect(
      (async function* () {
        for await (const entry of b.follow(summary.runId)) {
          yield entry;
          if (entry[0] >= 1) return;
        }
      })(),
    );
    model.release.resolve();
    await done;
    const rest = await collect(b.follow(summary.runId, early.at(-1)![0]));
    const all = await collect(a.follow(summary.runId));
    expect([...early, ...rest]).toEqual(all);
    expect(all[0]![1]).toMatchObject({ type: 'run_started', runId: summary.runId });
    expect(all.at(-1)![1].type).toBe('run_completed');
    expect((await b.state(summary.runId))?.result?.finalOutput).toBe('done: hi');
  });

  it('another server cancels a call the first one drives', async () => {
    const { model, a, b } = twoServers();
    const { summary } = await a.start('gated', 'stop me', { chatId: 'shared-2' });
    await model.called.promise;
    expect(await b.cancel(summary.runId, 'Cancelled from server B.')).toBe(true);
    await model.sawAbort.promise;
    const state = await a.state(summary.runId);
    expect(state?.status).toBe('cancelled');
    expect(state?.error?.message).toBe('Cancelled from server B.');
    expect(await b.cancel(summary.runId, 'again')).toBe(false);
    expect(await b.cancel('callrun_unknown', 'x')).toBeNull();
    model.release.resolve();
  });
});
