/**
 * A streamed chat completion follows its background run with callbacks when the run's log is in
 * this process, and with the batch iterator when it is shared (Redis on a cluster): both send the
 * same chunks, on Node (written to the socket) and through a web stream (`app.request`).
 */
import { describe, expect, it } from 'vitest';
import { inProcessExecutor } from '../../../src/server/executor.js';
import { MemoryCallRunLog, type CallRunEvent } from '../../../src/server/runs/runLog.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { echoAgency, json, listen, post, sseEvents, testRegistry } from '../helpers.js';
import { gatedAgency, until } from './helpers.js';

/** A log that writes as a shared one does (its own `append`): followed by the batch iterator. */
class SharedLikeLog extends MemoryCallRunLog {
  appends = 0;
  override async append(runId: string, event: CallRunEvent): Promise<number> {
    this.appends += 1;
    return super.append(runId, event);
  }
}

/** The stream's text with its per-request ids and times made constant. */
const normalized = (text: string) =>
  text
    .replace(/chatcmpl-[0-9a-f-]+/g, 'chatcmpl-X')
    .replace(/callrun_[0-9a-f-]+/g, 'callrun_X')
    .replace(/"created":\d+/g, '"created":0');

async function streamed(shared: boolean) {
  const store = new MemoryStore();
  const registry = testRegistry({ agencies: [echoAgency('echo', store)], store, demo: false });
  const log = shared ? new SharedLikeLog() : new MemoryCallRunLog();
  const server = await listen(registry, {
    executor: { ...inProcessExecutor(registry), callRunLog: log },
  });
  const body = {
    model: 'echo',
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: 'user', content: 'hi' }],
  };
  const node = await (await post(`${server.url}/v1/chat/completions`, body)).text();
  const web = await (
    await server.app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', host: '127.0.0.1' },
      body: JSON.stringify(body),
    })
  ).text();
  return { node: normalized(node), web: normalized(web), log };
}

describe('a streamed chat completion over either kind of run log', () => {
  it('sends the same chunks followed by callbacks (in-process log) or by the iterator (shared log)', async () => {
    const memory = await streamed(false);
    const shared = await streamed(true);
    expect((shared.log as SharedLikeLog).appends).toBeGreaterThan(0); // the shared path ran
    expect(memory.node).toMatch(/^data: \{.*"colloquy_run_id":"callrun_X"\}\nid: 0\n\n/);
    expect(memory.node).toContain('"usage":{');
    expect(memory.node.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(memory.web).toBe(memory.node);
    expect(shared.node).toBe(memory.node);
    expect(shared.web).toBe(memory.node);
  });
});

describe('a streamed chat completion whose client leaves', () => {
  it('cancels its run when the body said onDisconnect: "cancel", after the first chunk', async () => {
    const store = new MemoryStore();
    const gated = gatedAgency('gated', store);
    const server = await listen({ agencies: [gated.agency], store, demo: false });
    const leave = new AbortController();
    const response = await post(
      `${server.url}/v1/chat/completions`,
      {
        model: 'gated',
        stream: true,
        onDisconnect: 'cancel',
        messages: [{ role: 'user', content: 'bye' }],
      },
      {},
      leave.signal,
    );
    const runId = response.headers.get('x-colloquy-run-id')!;
    for await (const event of sseEvents(response)) {
      expect(JSON.parse(event.data).colloquy_run_id).toBe(runId); // sent before the model answers
      break;
    }
    leave.abort();
    await gated.model.called.promise;
    await gated.model.sawAbort.promise; // the model call was aborted
    const ended = await until(
      async () => json(await fetch(`${server.url}/runs/${runId}`)),
      (s) => s.status !== 'running',
    );
    expect(ended.status).toBe('cancelled');
    expect(ended.error.message).toMatch(/onDisconnect: "cancel"/);
    gated.model.release.resolve();
  });
});
