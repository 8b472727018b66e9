import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import type { AgencyStreamEvent } from '../../src/agency/events.js';
import { toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import {
  chatThreads,
  deferred,
  label,
  send,
  sends,
  simpleTool,
  unmatchedCalls,
} from './helpers.js';

/**
 * A (entry) → B and C in parallel; C answers at once, B calls a `wait` tool that blocks until the
 * test releases it, then would message D and answer. The test aborts while B's tool is waiting.
 */
function build() {
  const toolStarted = deferred();
  const release = deferred();
  const cDone = deferred();
  const models = {
    A: new ScriptedModel(
      [sends(['B', 'to B'], ['C', 'to C']), (r) => `A: ${toolOutputsSinceUser(r).join(', ')}`],
      { name: 'a' },
    ),
    B: new ScriptedModel([{ tool: 'wait', args: {} }, send('D', 'to D'), 'B done'], { name: 'b' }),
    C: new ScriptedModel(['C done'], { name: 'c' }),
    D: new ScriptedModel(['D done'], { name: 'd' }),
  };
  const wait = simpleTool('wait', async () => {
    toolStarted.resolve();
    await release.promise;
    return 'waited';
  });
  const a = new Agent({ name: 'A', instructions: 'a', model: models.A });
  const b = new Agent({ name: 'B', instructions: 'b', model: models.B, tools: [wait] });
  const c = new Agent({ name: 'C', instructions: 'c', model: models.C });
  const d = new Agent({ name: 'D', instructions: 'd', model: models.D });
  const agency = new Agency({
    entryPoints: [a],
    communicationFlows: [
      [a, b],
      [a, c],
      [b, d],
    ],
    hooks: {
      onRunEnd: (e) => {
        if (e.agent === 'C') cDone.resolve();
      },
    },
  });
  /** Resolves once B's tool is waiting and C has answered and saved. */
  const ready = Promise.all([toolStarted.promise, cDone.promise]);
  return { agency, models, ready, release };
}

async function expectConsistent(agency: Agency, chatId: string): Promise<Map<string, string[]>> {
  const threads = await chatThreads(agency, chatId);
  expect(threads.size).toBeGreaterThan(0);
  for (const [threadId, items] of threads) {
    expect({ threadId, unmatched: unmatchedCalls(items) }).toEqual({ threadId, unmatched: [] });
    const ids = items.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
  }
  return new Map([...threads].map(([id, items]) => [id, items.map((t) => label(t.item))]));
}

describe('aborting an agency call', () => {
  it('rejects getResponse, stops the nested run and leaves the threads consistent', async () => {
    const { agency, models, ready, release } = build();
    const controller = new AbortController();
    const pending = agency.getResponse('go', { chatId: 'ab', signal: controller.signal });
    await ready;
    controller.abort();
    release.resolve();
    await expect(pending).rejects.toThrow(/abort/i);
    expect(models.B.calls).toHaveLength(1);
    expect(models.D.calls).toHaveLength(0);
    expect(models.A.calls).toHaveLength(1);
    const threads = await expectConsistent(agency, 'ab');
    expect(models.C.calls).toHaveLength(1);
    // The finished sibling keeps its exchange; the aborted runs keep only the incoming message.
    expect(threads.get('ab__A__C')).toEqual(['user:to C', 'assistant:C done']);
    expect(threads.get('ab__A__B')).toEqual(['user:to B']);
    expect(threads.get('ab__A__USER')).toEqual(['user:go']);
    expect(threads.has('ab__B__D')).toBe(false);
  });

  it("rejects with the signal's reason when one is given", async () => {
    const { agency, ready, release } = build();
    const controller = new AbortController();
    const pending = agency.getResponse('go', { chatId: 'why', signal: controller.signal });
    await ready;
    controller.abort(new Error('user pressed stop'));
    release.resolve();
    await expect(pending).rejects.toThrow('user pressed stop');
    await expectConsistent(agency, 'why');
  });

  it('rejects at once for a signal that is already aborted, without calling any model', async () => {
    const { agency, models } = build();
    await expect(
      agency.getResponse('go', { chatId: 'pre', signal: AbortSignal.abort() }),
    ).rejects.toThrow();
    expect(Object.values(models).every((m) => m.calls.length === 0)).toBe(true);
    await expectConsistent(agency, 'pre');
  });

  it('aborts a stream through its signal, ends with an error event and keeps threads consistent', async () => {
    const { agency, models, ready, release } = build();
    const controller = new AbortController();
    const events: AgencyStreamEvent[] = [];
    const consume = (async () => {
      for await (const event of agency.getResponseStream('go', {
        chatId: 'st',
        signal: controller.signal,
      }))
        events.push(event);
    })();
    await ready;
    controller.abort();
    release.resolve();
    await expect(consume).rejects.toThrow(/abort/i);
    expect(events.at(-1)).toMatchObject({ type: 'error' });
    expect(events.some((e) => e.type === 'run_completed')).toBe(false);
    expect(
      events
        .filter((e) => e.type === 'agent_run_failed')
        .map((e) => 'agent' in e && e.agent)
        .sort(),
    ).toEqual(['A', 'B']);
    expect(models.B.calls).toHaveLength(1);
    expect(models.D.calls).toHaveLength(0);
    await expectConsistent(agency, 'st');
  });

  it('lets the same chat go on after an abort', async () => {
    const { agency, ready, release } = build();
    const controller = new AbortController();
    const pending = agency.getResponse('go', { chatId: 'again', signal: controller.signal });
    await ready;
    controller.abort();
    release.resolve();
    await expect(pending).rejects.toThrow();
    // The scripts are half used up; a fresh entry point answering plainly shows the chat still works.
    const model = new ScriptedModel(
      (request) => `seen ${(request.input as unknown[]).length} items`,
    );
    const fresh = new Agency({
      entryPoints: [new Agent({ name: 'A', instructions: 'a', model })],
      threads: agency.threads,
    });
    expect((await fresh.getResponse('hello', { chatId: 'again' })).finalOutput).toBe(
      'seen 2 items',
    );
    await expectConsistent(fresh, 'again');
  });

  it('leaves no dangling call when a nested agent calls send_message and the abort comes after it answered', async () => {
    const gate = deferred();
    const started = deferred();
    const aModel = new ScriptedModel([send('B', 'to B'), { tool: 'wait', args: {} }, 'A done']);
    const bModel = new ScriptedModel(['B done']);
    const a = new Agent({
      name: 'A',
      instructions: 'a',
      model: aModel,
      tools: [
        simpleTool('wait', async () => {
          started.resolve();
          await gate.promise;
          return 'w';
        }),
      ],
    });
    const agency = new Agency({
      entryPoints: [a],
      communicationFlows: [[a, new Agent({ name: 'B', instructions: 'b', model: bModel })]],
    });
    const controller = new AbortController();
    const pending = agency.getResponse('go', { chatId: 'late', signal: controller.signal });
    await started.promise;
    controller.abort();
    gate.resolve();
    await expect(pending).rejects.toThrow();
    expect(aModel.calls).toHaveLength(2);
    const threads = await expectConsistent(agency, 'late');
    expect(threads.get('late__A__B')).toEqual(['user:to B', 'assistant:B done']);
    expect(threads.get('late__A__USER')).toEqual(['user:go']);
  });
});
