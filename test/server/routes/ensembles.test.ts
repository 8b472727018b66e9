import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { EventSource } from 'eventsource';
import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../../src/server/registry.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { allSseEvents, json, listen, post, tempDir, writeScript } from '../helpers.js';

/** An ensembles dir: `pair` (a → b, script agents) and `slow` (one agent that sleeps). */
function ensemblesDir(): string {
  const dir = tempDir();
  const a = writeScript(
    dir,
    'a.js',
    `reply({ success: true, data: { from: 'a', task: msg.input } });`,
  );
  const b = writeScript(
    dir,
    'b.js',
    `reply({ success: true, data: { from: 'b', saw: msg.conversation_state.accumulated_context.a.from } });`,
  );
  const slow = writeScript(
    dir,
    'slow.js',
    `setTimeout(() => reply({ success: true, data: { slept: true } }), 800);`,
  );
  writeFileSync(
    path.join(dir, 'pair.yaml'),
    `name: pair\nagents:\n  - name: a\n    script: ${a}\n  - name: b\n    script: ${b}\n    depends_on: [a]\n`,
  );
  writeFileSync(
    path.join(dir, 'slow.yaml'),
    `name: slow\nagents:\n  - name: sleeper\n    script: ${slow}\n`,
  );
  return dir;
}

async function waitFinished(url: string, runId: string) {
  for (let i = 0; i < 200; i++) {
    const state = await json(await fetch(`${url}/runs/${runId}`));
    if (state.status !== 'running') return state;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`run ${runId} did not finish`);
}

/** A store whose next workflow save after agent `b` finished fails once (as a crash would). */
class FlakyStore extends MemoryStore {
  failed = false;
  override async setMetadata(
    threadId: string,
    metadata: Record<string, unknown>,
    chatId?: string | null,
  ): Promise<void> {
    // Fail the save that commits b's turn (the run's second turn).
    const turns = (metadata.workflow as { conversation?: { turn_count?: number } } | undefined)
      ?.conversation?.turn_count;
    if (!this.failed && turns === 2) {
      this.failed = true;
      throw new Error('connection reset while saving');
    }
    return super.setMetadata(threadId, metadata, chatId);
  }
}

describe('ensemble routes', () => {
  it('lists ensembles, starts a run, reports its state and streams its events (raw fetch and eventsource)', async () => {
    const server = await listen({ ensembles: ensemblesDir(), demo: false });
    expect(await json(await fetch(`${server.url}/ensembles`))).toEqual({
      ensembles: [{ name: 'pair' }, { name: 'slow' }],
    });
    const started = await post(`${server.url}/ensembles/pair/runs`, {
      input: 'the task',
      runId: 'run-pair-1',
    });
    expect(started.status).toBe(202);
    expect(await json(started)).toMatchObject({
      runId: 'run-pair-1',
      ensemble: 'pair',
      status: 'running',
      links: { events: '/runs/run-pair-1/events' },
    });

    const raw = await allSseEvents(await fetch(`${server.url}/runs/run-pair-1/events`));
    expect(raw.map((e) => e.event)).toEqual([
      'ensemble_started',
      'step_started',
      'agent_started',
      'agent_finished',
      'turn_recorded',
      'step_started',
      'agent_started',
      'agent_finished',
      'turn_recorded',
      'ensemble_finished',
    ]);
    expect(raw.map((e) => e.id)).toEqual(raw.map((_, i) => String(i)));

    const source = new EventSource(`${server.url}/runs/run-pair-1/events`);
    const types: string[] = [];
    const result = await new Promise<{
      completion_reason: string;
      final_state: Record<string, unknown>;
    }>((resolve, reject) => {
      for (const type of ['ensemble_started', 'agent_started', 'turn_recorded'])
        source.addEventListener(type, (e) => types.push(JSON.parse(e.data).type));
      source.addEventListener('ensemble_finished', (e) => {
        source.close();
        resolve(JSON.parse(e.data).result);
      });
      source.addEventListener('error', () => {
        source.close();
        reject(new Error('eventsource error'));
      });
    });
    expect(types).toEqual([
      'ensemble_started',
      'agent_started',
      'turn_recorded',
      'agent_started',
      'turn_recorded',
    ]);
    expect(result.completion_reason).toBe('completed');
    expect(result.final_state).toEqual({
      a: { from: 'a', task: 'the task' },
      b: { from: 'b', saw: 'a' },
    });

    const state = await json(await fetch(`${server.url}/runs/run-pair-1`));
    expect(state).toMatchObject({
      runId: 'run-pair-1',
      status: 'finished',
      turnCount: 2,
      result: { completion_reason: 'completed' },
    });
    const after = await allSseEvents(
      await fetch(`${server.url}/runs/run-pair-1/events`, { headers: { 'last-event-id': '7' } }),
    );
    expect(after.map((e) => e.event)).toEqual(['turn_recorded', 'ensemble_finished']);
    expect((await post(`${server.url}/ensembles/pair/runs`, { runId: 'run-pair-1' })).status).toBe(
      409,
    );
    const resumedFinished = await post(`${server.url}/runs/run-pair-1/resume`, {});
    expect(resumedFinished.status).toBe(200);
    expect((await json(resumedFinished)).status).toBe('finished');
  });

  it('follows a run live, and refuses to resume it while it runs', async () => {
    const server = await listen({ ensembles: ensemblesDir(), demo: false });
    const { runId } = await json(await post(`${server.url}/ensembles/slow/runs`, {}));
    expect(runId).toMatch(/^run_/);
    const busy = await post(`${server.url}/runs/${runId}/resume`, {});
    expect(busy.status).toBe(409);
    expect((await json(busy)).error.code).toBe('RUN_ACTIVE');
    const events = await allSseEvents(await fetch(`${server.url}/runs/${runId}/events`));
    expect(events.at(-1)!.event).toBe('ensemble_finished');
    expect(JSON.parse(events.at(-1)!.data).result.final_state).toEqual({
      sleeper: { slept: true },
    });
  });

  it('resumes a run that stopped on a store failure, re-running only the unfinished agent', async () => {
    const dir = ensemblesDir();
    const store = new FlakyStore();
    const server = await listen({ ensembles: dir, store, demo: false });
    await post(`${server.url}/ensembles/pair/runs`, { input: 'x', runId: 'run-flaky' });
    const failed = await waitFinished(server.url, 'run-flaky');
    expect(failed).toMatchObject({
      status: 'failed',
      error: { message: expect.stringContaining('connection reset') },
    });
    const failedEvents = await allSseEvents(await fetch(`${server.url}/runs/run-flaky/events`));
    expect(failedEvents.at(-1)!.event).toBe('error');

    // Another server on the same store sees the checkpointed run as interrupted.
    const other = await listen(createRegistry({ ensembles: dir, store, ownsStore: false }));
    expect(await json(await fetch(`${other.url}/runs/run-flaky`))).toMatchObject({
      status: 'interrupted',
      turnCount: 1,
      ensemble: 'pair',
    });

    const resumed = await post(`${server.url}/runs/run-flaky/resume`, {});
    expect(resumed.status).toBe(202);
    const events = await allSseEvents(await fetch(`${server.url}/runs/run-flaky/events`));
    expect(JSON.parse(events[0]!.data)).toMatchObject({
      type: 'ensemble_started',
      resumed: true,
      turn_count: 1,
    });
    expect(
      events.filter((e) => e.event === 'agent_started').map((e) => JSON.parse(e.data).agent),
    ).toEqual(['b']);
    const done = await waitFinished(server.url, 'run-flaky');
    expect(done).toMatchObject({
      status: 'finished',
      turnCount: 2,
      result: {
        completion_reason: 'completed',
        final_state: { a: { from: 'a', task: 'x' }, b: { from: 'b', saw: 'a' } },
      },
    });
  });

  it('validates run bodies and ids', async () => {
    const server = await listen({ ensembles: ensemblesDir(), demo: false });
    const bad = await post(`${server.url}/ensembles/pair/runs`, { runId: 'has space' });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.path).toBe('runId');
    const answers = await post(`${server.url}/ensembles/pair/runs`, {
      answers: { answers: { a: 5 } },
    });
    expect((await json(answers)).error.path).toBe('answers.answers.a');
    expect((await post(`${server.url}/ensembles/..%2Fpair/runs`, {})).status).toBe(404);
  });
});
