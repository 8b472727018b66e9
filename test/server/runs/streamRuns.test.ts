/**
 * Streaming routes are background runs the stream follows: a client that disconnects leaves the
 * call running and rejoins with `GET /runs/:id/events` + `Last-Event-ID`, receiving every event
 * exactly once and the same result as an uninterrupted call; `onDisconnect: "cancel"` cancels.
 */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/stores/memory.js';
import { json, listen, post, sseEvents, type SseEvent } from '../helpers.js';
import { gatedAgency, readAll, until } from './helpers.js';

/** Reads events until `stop` says so, then drops the connection. */
async function readThenLeave(
  response: Response,
  leave: AbortController,
  stop: (seen: SseEvent[]) => boolean,
): Promise<SseEvent[]> {
  const seen: SseEvent[] = [];
  for await (const event of sseEvents(response)) {
    seen.push(event);
    if (stop(seen)) break;
  }
  leave.abort();
  return seen;
}

async function setup() {
  const store = new MemoryStore();
  const gated = gatedAgency('gated', store);
  const plain = gatedAgency('plain', store);
  plain.model.release.resolve(); // the uninterrupted twin answers at once
  const server = await listen({ agencies: [gated.agency, plain.agency], store, demo: false });
  const state = (runId: string) =>
    until(
      async () => json(await fetch(`${server.url}/runs/${runId}`)),
      (s) => s.status !== 'running',
    );
  return { server, model: gated.model, state };
}

describe('a streaming call outlives its client', () => {
  it('/responses/stream: disconnect mid-stream, rejoin after Last-Event-ID, every event once, the same result', async () => {
    const { server, model, state } = await setup();
    const leave = new AbortController();
    const response = await post(
      `${server.url}/agencies/gated/responses/stream`,
      { message: 'hi', chatId: 'left' },
      {},
      leave.signal,
    );
    const runId = response.headers.get('x-colloquy-run-id')!;
    expect(runId).toMatch(/^callrun_/);
    const seen = await readThenLeave(response, leave, (events) => events.length >= 2);
    expect(JSON.parse(seen[0]!.data)).toEqual({
      type: 'run_started',
      runId,
      agency: 'gated',
      chatId: 'left',
    });
    await model.called.promise;
    // The client is gone; the call is not: still running, and its model was not aborted.
    expect((await json(await fetch(`${server.url}/runs/${runId}`))).status).toBe('running');
    model.release.resolve();
    const done = await state(runId);
    expect(done.status).toBe('completed');
    const aborted = await Promise.race([model.sawAbort.promise.then(() => true), false]);
    expect(aborted).toBe(false);

    const rest = await readAll(
      await fetch(`${server.url}/runs/${runId}/events`, {
        headers: { 'last-event-id': seen.at(-1)!.id! },
      }),
    );
    const everything = await readAll(await fetch(`${server.url}/runs/${runId}/events`));
    const joined = [...seen, ...rest];
    expect(new Set(joined.map((e) => e.id)).size).toBe(joined.length);
    expect(joined.map((e) => [e.id, e.data])).toEqual(everything.map((e) => [e.id, e.data]));
    expect(rest.length).toBeGreaterThan(2);
    expect(everything.at(-1)!.event).toBe('run_completed');

    const uninterrupted = await readAll(
      await post(`${server.url}/agencies/plain/responses/stream`, {
        message: 'hi',
        chatId: 'kept',
      }),
    );
    const result = JSON.parse(uninterrupted.at(-1)!.data).result;
    expect(done.result.finalOutput).toBe('done: hi');
    expect(done.result.finalOutput).toBe(result.finalOutput);
    const kinds = (items: Array<{ type: string }>) => items.map((item) => item.type);
    expect(kinds(done.result.newItems)).toEqual(kinds(result.newItems));
    expect(uninterrupted.map((e) => e.event)).toEqual(everything.map((e) => e.event));
  });

  it('/v1/chat/completions streamed: the run id is in the first chunk; the rejoined run ends with the same text', async () => {
    const { server, model, state } = await setup();
    const leave = new AbortController();
    const response = await post(
      `${server.url}/v1/chat/completions`,
      { model: 'gated', stream: true, messages: [{ role: 'user', content: 'there' }] },
      {},
      leave.signal,
    );
    const seen = await readThenLeave(response, leave, (events) => events.length >= 1);
    const first = JSON.parse(seen[0]!.data);
    expect(first.colloquy_run_id).toBe(response.headers.get('x-colloquy-run-id'));
    expect(first.choices[0].delta.role).toBe('assistant');
    expect(seen[0]!.id).toBe('0');
    const runId = first.colloquy_run_id as string;
    await model.called.promise;
    model.release.resolve();
    expect((await state(runId)).status).toBe('completed');
    const rest = await readAll(
      await fetch(`${server.url}/runs/${runId}/events`, { headers: { 'last-event-id': '0' } }),
    );
    expect(rest[0]!.id).toBe('1');
    expect(JSON.parse(rest.at(-1)!.data).result.finalOutput).toBe('done: there');
  });

  it('/v1/responses and the AG-UI and UI message streams name their run in a header and the first event', async () => {
    const { server, model } = await setup();
    model.release.resolve();
    const v1 = await post(`${server.url}/v1/responses`, {
      model: 'gated',
      input: 'a',
      stream: true,
    });
    const v1Events = await readAll(v1);
    expect(JSON.parse(v1Events[0]!.data).response.metadata.colloquy_run_id).toBe(
      v1.headers.get('x-colloquy-run-id'),
    );
    expect(v1Events.at(-1)!.event).toBe('response.completed');
    const agUi = await post(`${server.url}/agencies/gated/ag-ui`, {
      threadId: 'ag-thread',
      runId: 'client-run',
      messages: [{ id: 'm1', role: 'user', content: 'b' }],
    });
    const agUiEvents = await readAll(agUi);
    const started = JSON.parse(agUiEvents[0]!.data);
    expect(started).toMatchObject({ type: 'RUN_STARTED', runId: 'client-run' });
    expect(started.rawEvent.colloquyRunId).toBe(agUi.headers.get('x-colloquy-run-id'));
    expect(JSON.parse(agUiEvents.at(-1)!.data).type).toBe('RUN_FINISHED');
    const ui = await post(`${server.url}/agencies/gated/ui-messages`, {
      id: 'ui-chat',
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'c' }] }],
    });
    const uiEvents = await readAll(ui);
    expect(JSON.parse(uiEvents[0]!.data).messageMetadata.colloquyRunId).toBe(
      ui.headers.get('x-colloquy-run-id'),
    );
    expect(uiEvents.at(-1)!.data).toBe('[DONE]');
  });

  it('onDisconnect: "cancel" cancels the call when the client leaves', async () => {
    const { server, model, state } = await setup();
    const leave = new AbortController();
    const response = await post(
      `${server.url}/agencies/gated/responses/stream`,
      { message: 'bye', onDisconnect: 'cancel' },
      {},
      leave.signal,
    );
    const runId = response.headers.get('x-colloquy-run-id')!;
    await readThenLeave(response, leave, (events) => events.length >= 1);
    await model.called.promise;
    await model.sawAbort.promise; // the model call was aborted
    const ended = await state(runId);
    expect(ended.status).toBe('cancelled');
    expect(ended.error.message).toMatch(/onDisconnect: "cancel"/);
    model.release.resolve();
  });

  it('refuses an onDisconnect it does not know, naming the field', async () => {
    const { server } = await setup();
    const response = await post(`${server.url}/agencies/gated/responses/stream`, {
      message: 'x',
      onDisconnect: 'pause',
    });
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body.error.path).toBe('onDisconnect');
    expect(body.error.message).toMatch(/continue.*cancel/);
  });
});
