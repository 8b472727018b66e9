import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/stores/memory.js';
import { echoAgency, json, listen, post, sseEvents, type SseEvent } from '../helpers.js';
import { gatedAgency, readAll, until } from './helpers.js';

describe('background agency calls', () => {
  it('survive the client leaving; a rejoining client gets every event once, and the same result', async () => {
    const store = new MemoryStore();
    const { agency, model } = gatedAgency('gated', store);
    const server = await listen({
      agencies: [agency, echoAgency('echo', store)],
      store,
      demo: false,
    });
    const started = await post(`${server.url}/agencies/gated/runs`, { message: 'hi' });
    expect(started.status).toBe(202);
    const { runId, status } = await json(started);
    expect(status).toBe('running');

    // The first client reads until the model is running, then disconnects.
    const leave = new AbortController();
    const first = await fetch(`${server.url}/runs/${runId}/events`, { signal: leave.signal });
    const seen: SseEvent[] = [];
    for await (const event of sseEvents(first)) {
      seen.push(event);
      if (seen.length >= 1) break;
    }
    await model.called.promise;
    leave.abort();
    expect((await json(await fetch(`${server.url}/runs/${runId}`))).status).toBe('running');

    model.release.resolve();
    const done = await until(
      async () => json(await fetch(`${server.url}/runs/${runId}`)),
      (state) => state.status !== 'running',
    );
    expect(done.status).toBe('completed');

    const lastId = seen.at(-1)!.id!;
    const rest = await readAll(
      await fetch(`${server.url}/runs/${runId}/events`, { headers: { 'last-event-id': lastId } }),
    );
    const everything = await readAll(await fetch(`${server.url}/runs/${runId}/events`));
    const joined = [...seen, ...rest];
    expect(joined.map((e) => e.id)).toEqual(everything.map((e) => e.id));
    expect(joined.map((e) => e.data)).toEqual(everything.map((e) => e.data));
    expect(new Set(joined.map((e) => e.id)).size).toBe(joined.length);
    expect(everything.map((e) => Number(e.id))).toEqual(everything.map((_, i) => i));
    expect(everything.at(-1)!.event).toBe('run_completed');

    const plain = await json(
      await post(`${server.url}/agencies/gated/responses`, { message: 'hi' }),
    );
    expect(done.result.finalOutput).toBe(plain.finalOutput);
    expect(done.result.finalOutput).toBe('done: hi');
    expect(done.result.newItems.length).toBe(plain.newItems.length);
  });

  it('cancels on DELETE /runs/:id and ends with run_failed; ensemble run ids still reach their routes', async () => {
    const store = new MemoryStore();
    const { agency, model } = gatedAgency('gated', store);
    const server = await listen({ agencies: [agency], store, demo: false });
    const { runId } = await json(await post(`${server.url}/agencies/gated/runs`, { message: 'x' }));
    await model.called.promise;
    const cancel = await fetch(`${server.url}/runs/${runId}`, { method: 'DELETE' });
    expect(cancel.status).toBe(202);
    const state = await until(
      async () => json(await fetch(`${server.url}/runs/${runId}`)),
      (s) => s.status !== 'running',
    );
    expect(state.status).toBe('cancelled');
    await model.sawAbort.promise; // the model call was aborted too
    model.release.resolve();
    const events = await readAll(await fetch(`${server.url}/runs/${runId}/events`));
    expect(events.at(-1)!.event).toBe('run_failed');
    expect(JSON.parse(events.at(-1)!.data).status).toBe('cancelled');
    expect((await fetch(`${server.url}/runs/${runId}`, { method: 'DELETE' })).status).toBe(409);
    const unknown = await fetch(`${server.url}/runs/ens-run-unknown`);
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.code).toBe('RUN_NOT_FOUND');
  });
});
