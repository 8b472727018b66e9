/**
 * The frontend protocols on a server whose calls run on queue workers (`serve --queue`): the
 * page's client tools reach the worker's entry point, the client's tool result resumes the call
 * on a worker, and so does an approval. The server and the worker each build the frontdesk agency
 * (as two processes would) on one Redis thread store; the tool runs on the worker.
 */
import { HttpAgent } from '@ag-ui/client';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createFrontdesk } from '../../examples/frontends/agency.js';
import { queuedExecutor } from '../../src/queue/queuedExecutor.js';
import { createWorker, type QueueWorker } from '../../src/queue/worker.js';
import { createRegistry } from '../../src/server/registry.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { RedisStore } from '../../src/stores/redis.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { redisSkip, redisUrl, uniqueName } from '../setup/serviceUrls.js';

const skip = redisSkip();

const setTheme = {
  name: 'set_theme',
  description: 'Sets the page theme.',
  parameters: { type: 'object', properties: { theme: { type: 'string' } } },
};

describe.skipIf(Boolean(skip))(`frontends through the queue${skip ? ` (${skip})` : ''}`, () => {
  let close: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const step of close.reverse()) await step();
    close = [];
  });

  /** A worker and a queued server on the test Redis, both with the frontdesk agency. */
  async function start(): Promise<{ server: RunningServer; deletedYears: number[] }> {
    const queue = redisUrl()!;
    const prefix = uniqueName('qfront');
    const store = new RedisStore({ url: queue, keyPrefix: `${prefix}:store:` });
    close.push(() => store.close());
    const onWorker = createFrontdesk({ threads: new ThreadManager({ store }) });
    const worker: QueueWorker = createWorker({
      queue,
      prefix,
      registry: createRegistry({ agencies: [onWorker.agency], store, ownsStore: false }),
      concurrency: 2,
    });
    await worker.worker.waitUntilReady();
    close.push(() => worker.close({ graceMs: 0 }));
    const onServer = createFrontdesk({ threads: new ThreadManager({ store }) });
    const registry = createRegistry({ agencies: [onServer.agency], store, ownsStore: false });
    const server = await startServer({
      port: 0,
      host: '127.0.0.1',
      registry,
      executor: queuedExecutor(registry, { queue, prefix }),
      handleSignals: false,
      gracePeriodMs: 500,
      env: {},
    });
    close.push(() => server.close());
    return { server, deletedYears: onWorker.deletedYears };
  }

  it('AG-UI: a frontend tool call and an approval each resume on a worker', async () => {
    const { server, deletedYears } = await start();
    const url = `${server.url}/agencies/frontdesk/ag-ui`;
    const agent = new HttpAgent({ url, threadId: uniqueName('q-agui') });
    agent.addMessage({ id: 'u1', role: 'user', content: 'make it dark' });
    const called = await agent.runAgent({ tools: [setTheme] });
    const call = called.newMessages.flatMap((m) =>
      m.role === 'assistant' ? (m.toolCalls ?? []) : [],
    )[0]!;
    expect(call.function.name).toBe('set_theme');
    agent.addMessage({ id: 't1', role: 'tool', toolCallId: call.id, content: 'theme is dark' });
    let text = '';
    const collect = {
      onTextMessageContentEvent: ({ event }: { event: { delta: string } }) => {
        text += event.delta;
      },
    };
    await agent.runAgent({ tools: [setTheme] }, collect);
    expect(text).toBe('Desk: theme is dark');

    agent.addMessage({ id: 'u2', role: 'user', content: 'delete the 2015 reports' });
    await agent.runAgent({});
    expect(agent.pendingInterrupts).toHaveLength(1);
    expect(deletedYears).toEqual([]);
    text = '';
    await agent.runAgent(
      {
        resume: [
          {
            interruptId: agent.pendingInterrupts[0]!.id,
            status: 'resolved',
            payload: { approved: true },
          },
        ],
      },
      collect,
    );
    expect(deletedYears).toEqual([2015]);
    expect(text).toBe('Desk: Clerk: deleted the 2015 reports');
  });

  it('/v1 Responses: the tool call comes back and the function output resumes on a worker', async () => {
    const { server } = await start();
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const tools = [{ type: 'function' as const, strict: false, ...setTheme }];
    const first = await client.responses.create({ model: 'frontdesk', input: 'go light', tools });
    const call = first.output.find((item) => item.type === 'function_call')!;
    expect(call).toMatchObject({ name: 'set_theme', arguments: '{"theme":"light"}' });
    const second = await client.responses.create({
      model: 'frontdesk',
      tools,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'light on' }],
    });
    expect(second.output_text).toBe('Desk: light on');
  });
});
