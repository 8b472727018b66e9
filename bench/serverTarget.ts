/**
 * One server of `bench/server.ts`, in its own process so that its CPU time and RSS are its own:
 *   npx tsx bench/serverTarget.ts colloquy-sqlite|colloquy-memory|sdk [--built]
 * prints `{"port": N}` once listening. Every target serves the same two agents on scripted models
 * (A delegates to B once, then answers with B's reply) over the same three routes:
 * `POST /v1/chat/completions` (plain and `stream: true`) and `POST /agencies/bench/responses`.
 *   - colloquy-sqlite: `startServer` as `colloquy serve` runs it (SQLite threads and traces);
 *   - colloquy-memory: the same on a MemoryStore with tracing off (what the store and traces cost);
 *   - sdk: `node:http` calling the SDK's `Runner.run` on A, whose tool runs B, with a
 *     `MemorySession` per chat for each of the two conversations (the cheapest SDK code that
 *     keeps both, as Colloquy keeps both threads);
 *   - sdk-nested: the sdk server whose tool, in a streamed request, streams B's run too and reads
 *     every one of its events, as Colloquy streams a nested agent (its events are tagged and kept
 *     in the run log): what that feature costs in SDK code, for information (`--targets`);
 *   - colloquy-floor / node-floor: the HTTP layers alone, no agent work: `startServer` with an
 *     executor that answers at once (every route, validation, run log and SSE as served), and a
 *     `node:http` server reading the JSON body and writing the same answer.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import {
  Agent as SdkAgent,
  MemorySession,
  Runner,
  tool,
  type ModelRequest,
} from '@openai/agents-core';
import { z } from 'zod';
import { cannedResult, startColloquyFloor } from './floorServer.js';

const kind = process.argv[2];
// `--built`: Colloquy's modules from dist/ (`npm run build`), compiled by tsc as an installed
// package runs them; from src/ through tsx, every named function made per call also pays
// esbuild's keepNames helper, which the SDK's own compiled code does not.
const built = process.argv.includes('--built');
if (built && !existsSync(new URL('../dist/index.js', import.meta.url)))
  throw new Error('serverTarget --built measures dist/: run `npm run build` first.');
const from = (module: string) =>
  import(built ? `../dist/${module}.js` : `../src/${module}.js`) as Promise<unknown>;
const { Agency } = (await from('agency/agency')) as typeof import('../src/agency/agency.js');
const { Agent } = (await from('agency/agent')) as typeof import('../src/agency/agent.js');
const { ScriptedModel } = (await from(
  'models/scriptedModel',
)) as typeof import('../src/models/scriptedModel.js');
// Models that keep no log of their calls, as a real model keeps none: a ScriptedModel recording
// every request would keep every request's input alive, and the garbage collector would walk a
// heap that grows with the bench (more on the side whose requests refer to more).
const scripted = (step: ConstructorParameters<typeof ScriptedModel>[0]) =>
  new ScriptedModel(step, { recordCalls: false });
const { toolOutputsSinceUser } = (await from(
  'models/requestText',
)) as typeof import('../src/models/requestText.js');
const { createRegistry } = (await from(
  'server/registry',
)) as typeof import('../src/server/registry.js');
const { inProcessExecutor } = (await from(
  'server/executor',
)) as typeof import('../src/server/executor.js');
const { startServer } = (await from('server/serve')) as typeof import('../src/server/serve.js');
const { MemoryStore } = (await from('stores/memory')) as typeof import('../src/stores/memory.js');
const { SqliteStore } = (await from('stores/sqlite')) as typeof import('../src/stores/sqlite.js');
const { ThreadManager } = (await from(
  'threads/threadManager',
)) as typeof import('../src/threads/threadManager.js');
const answer = (): string => 'B says hello';
function caller(toolName: string, args: Record<string, unknown>) {
  return (request: ModelRequest) => {
    const outputs = toolOutputsSinceUser(request);
    return outputs.length === 0 ? { tool: toolName, args } : `A got: ${outputs[0]}`;
  };
}

async function colloquyFloor(): Promise<number> {
  const modules = {
    Agency,
    Agent,
    ScriptedModel,
    createRegistry,
    inProcessExecutor,
    startServer,
    MemoryStore,
    ThreadManager,
  };
  return (await startColloquyFloor(modules, { handleSignals: true })).port;
}

async function colloquy(sqlite: boolean): Promise<number> {
  const store = sqlite
    ? new SqliteStore({ path: join(mkdtempSync(join(tmpdir(), 'bench-serve-')), 'c.db') })
    : new MemoryStore();
  const b = new Agent({
    name: 'B',
    description: 'answers',
    instructions: 'Answer.',
    model: scripted(answer),
  });
  const a = new Agent({
    name: 'A',
    instructions: 'Delegate to B.',
    model: scripted(
      caller('send_message', { recipient: 'B', message: 'hi', additionalInstructions: null }),
    ),
  });
  const agency = new Agency({
    name: 'bench',
    entryPoints: [a],
    communicationFlows: [[a, b]],
    threads: new ThreadManager({ store }),
    tracing: sqlite,
  });
  const server = await startServer({
    port: 0,
    registry: createRegistry({ agencies: [agency], store, ownsStore: true }),
    handleSignals: true,
    env: {},
  });
  return server.port;
}

/**
 * The SDK server, or with `floor` the same server answering without running the agents; with
 * `nestedStream`, a streamed request streams B's run as well and reads its events.
 */
function sdk(floor = false, nestedStream = false): Promise<number> {
  const runner = new Runner({ tracingDisabled: true });
  const sessionsA = new Map<string, MemorySession>();
  const sessionsB = new Map<string, MemorySession>();
  const sessionOf = (map: Map<string, MemorySession>, chatId: string): MemorySession => {
    let s = map.get(chatId);
    if (!s) map.set(chatId, (s = new MemorySession()));
    return s;
  };
  const b = new SdkAgent({ name: 'B', instructions: 'Answer.', model: scripted(answer) });
  // One agent A for every chat (built once, as a server would): the tool finds the chat's session
  // of B through the run context, so no agent, tool or JSON schema is made per request.
  const runB = async (message: string, context: { chatId: string; stream?: boolean }) => {
    const session = sessionOf(sessionsB, context.chatId);
    if (!(nestedStream && context.stream))
      return (await runner.run(b, message, { session })).finalOutput;
    const streamed = await runner.run(b, message, { session, stream: true });
    let events = 0;
    for await (const event of streamed) if (event.type) events += 1;
    await streamed.completed;
    if (events === 0) throw new Error('sdk-nested: B streamed no events');
    return streamed.finalOutput;
  };
  const agentA = new SdkAgent<{ chatId: string; stream?: boolean }>({
    name: 'A',
    instructions: 'Delegate to B.',
    model: scripted(caller('send_message', { recipient: 'B', message: 'hi' })),
    tools: [
      tool({
        name: 'send_message',
        description: 'Message B.',
        parameters: z.object({ recipient: z.string(), message: z.string() }),
        execute: async ({ message }, runContext) =>
          String(await runB(message, runContext!.context)),
      }),
    ],
  });

  async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  }
  const json = (res: ServerResponse, status: number, value: unknown): void => {
    const text = JSON.stringify(value);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const input = await body(req);
      if (req.url === '/agencies/bench/responses') {
        const chatId = (input.chatId as string | undefined) ?? randomUUID();
        if (floor) return json(res, 200, { chatId, finalOutput: cannedResult(chatId).finalOutput });
        const result = await runner.run(agentA, String(input.message), {
          context: { chatId },
          session: sessionOf(sessionsA, chatId),
        });
        return json(res, 200, { chatId, finalOutput: result.finalOutput });
      }
      if (req.url === '/v1/chat/completions') {
        const messages = input.messages as { role: string; content: string }[];
        const text = messages[messages.length - 1]!.content;
        const chatId = (input.user as string | undefined) ?? randomUUID();
        const id = `chatcmpl-${randomUUID()}`;
        if (floor) {
          const content = cannedResult(chatId).finalOutput;
          if (input.stream !== true)
            return json(res, 200, {
              id,
              object: 'chat.completion',
              choices: [
                { index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' },
              ],
            });
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          const chunk = {
            id,
            object: 'chat.completion.chunk',
            choices: [{ index: 0, delta: { content } }],
          };
          res.write(`data: ${JSON.stringify(chunk)}\n\n`);
          res.end('data: [DONE]\n\n');
          return;
        }
        if (input.stream === true) {
          const stream = await runner.run(agentA, text, {
            context: { chatId, stream: true },
            session: sessionOf(sessionsA, chatId),
            stream: true,
          });
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          for await (const delta of stream.toTextStream()) {
            const chunk = {
              id,
              object: 'chat.completion.chunk',
              choices: [{ index: 0, delta: { content: delta } }],
            };
            res.write(`data: ${JSON.stringify(chunk)}\n\n`);
          }
          await stream.completed;
          res.end('data: [DONE]\n\n');
          return;
        }
        const result = await runner.run(agentA, text, {
          context: { chatId },
          session: sessionOf(sessionsA, chatId),
        });
        return json(res, 200, {
          id,
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: result.finalOutput },
              finish_reason: 'stop',
            },
          ],
        });
      }
      json(res, 404, { error: 'not found' });
    })().catch((error: unknown) => json(res, 500, { error: String(error) }));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
}

const targets: Record<string, () => Promise<number>> = {
  'colloquy-sqlite': () => colloquy(true),
  'colloquy-memory': () => colloquy(false),
  sdk: () => sdk(),
  'sdk-nested': () => sdk(false, true),
  'colloquy-floor': colloquyFloor,
  'node-floor': () => sdk(true),
};
const startTarget = targets[kind ?? ''];
if (kind?.endsWith('-floor')) {
  // The agents SDK keeps its trace context in an AsyncLocalStorage, which turns on Node's promise
  // hooks for good at the first run: every promise then costs more. Both floors run with it on, as
  // the servers they stand for do.
  new AsyncLocalStorage().enterWith({ floor: kind });
}
if (!startTarget) {
  throw new Error(
    `serverTarget: unknown target "${kind}". Use one of: ${Object.keys(targets).join(', ')}.`,
  );
}
const port = await startTarget();
reportStats();
console.log(JSON.stringify({ port }));

/**
 * With an IPC channel (bench/server.ts spawns targets with one), answers each `'stats'` message
 * with the process's garbage-collection pauses so far (count, total and longest, ms) and its event
 * loop's utilization: the same observer on every target, outside the request path.
 */
function reportStats(): void {
  if (!process.send) return;
  const gc = { count: 0, totalMs: 0, maxMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count += 1;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('message', (message) => {
    if (message !== 'stats') return;
    const { idle, active } = performance.eventLoopUtilization();
    process.send!({ gc: { ...gc }, loop: { idleMs: idle, activeMs: active } });
    gc.maxMs = 0; // the longest pause since the last question
  });
  process.channel?.unref(); // the channel keeps nothing alive: the server does
}
