/**
 * Helpers of the server tests: a real listener on 127.0.0.1 (port 0) closed after each test, a
 * raw fetch SSE reader, echo agencies on scripted models, and a gated model that proves a run is
 * in flight.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents-core';
import { afterEach } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import { lastUserText, toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import type { ScriptedStep } from '../../src/models/scriptedModel.js';
import {
  createRegistry,
  type RegistryOptions,
  type ServerRegistry,
} from '../../src/server/registry.js';
import {
  startServer,
  type RunningServer,
  type StartServerOptions,
} from '../../src/server/serve.js';
import { MemoryStore } from '../../src/stores/memory.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fresh temp dir, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-srv-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Registry options of the tests: `demo` (default true) adds the demo agency, as the CLI does. */
export type TestRegistryOptions = RegistryOptions & { demo?: boolean };

/** A registry as `createRegistry` builds it, plus the demo agency on its store unless `demo: false`. */
export function testRegistry(options: TestRegistryOptions = {}): ServerRegistry {
  const { demo = true, ...rest } = options;
  if (!demo) return createRegistry(rest);
  const store = rest.store ?? new MemoryStore();
  const given = Array.isArray(rest.agencies)
    ? rest.agencies
    : Object.values(rest.agencies ?? {}).filter(Boolean);
  const demoAgency = createDemoAgency({ threads: new ThreadManager({ store }) });
  return createRegistry({
    ...rest,
    store,
    ownsStore: rest.ownsStore ?? rest.store === undefined,
    agencies: [...given, demoAgency],
  });
}

/** Starts a server on 127.0.0.1 and a free port; it (and its registry) is closed after the test. */
export async function listen(
  registry: ServerRegistry | TestRegistryOptions = {},
  options: Omit<StartServerOptions, 'registry'> = {},
): Promise<RunningServer & { registry: ServerRegistry }> {
  const reg =
    'runs' in registry
      ? (registry as ServerRegistry)
      : testRegistry(registry as TestRegistryOptions);
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
    gracePeriodMs: 500,
    env: {},
    ...options,
    registry: reg,
  });
  cleanups.push(async () => {
    await server.close();
    await reg.close();
  });
  return server;
}

/** POSTs JSON. */
export function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** One parsed SSE event. */
export interface SseEvent {
  event: string;
  id: string | undefined;
  data: string;
}

/** Reads SSE events from a fetch response body as they arrive (a raw reader, no library). */
export async function* sseEvents(response: Response): AsyncGenerator<SseEvent> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: SseEvent = { event: 'message', id: undefined, data: '' };
        const data: string[] = [];
        for (const line of block.split('\n')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event.event = text;
          else if (field === 'id') event.id = text;
          else if (field === 'data') data.push(text);
        }
        event.data = data.join('\n');
        yield event;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** Every SSE event of a response, to the end of the stream. */
export async function allSseEvents(response: Response): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const event of sseEvents(response)) out.push(event);
  return out;
}

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

/**
 * An agency `name` with an entry point `Front` that forwards each message to `Helper`, which
 * echoes it; Front answers `echo: <helper's answer>`. Threads live in `store`.
 */
export function echoAgency(
  name = 'echo',
  store: ThreadStore = new MemoryStore(),
  helperDelayMs = 0,
): Agency {
  const front = new Agent({
    name: 'Front',
    description: 'Forwards to the helper.',
    instructions: 'Forward the message to Helper and answer with its reply.',
    model: new ScriptedModel(
      (request): ScriptedStep => {
        const [answer] = toolOutputsSinceUser(request);
        if (answer === undefined)
          return {
            tool: 'send_message',
            args: {
              recipient: 'Helper',
              message: lastUserText(request),
              additionalInstructions: null,
            },
          };
        return `echo: ${answer}`;
      },
      { name: 'front' },
    ),
  });
  const helper = new Agent({
    name: 'Helper',
    description: 'Echoes.',
    instructions: 'Repeat the message.',
    model: new DelayedModel(
      new ScriptedModel((request) => `helper says ${lastUserText(request)}`, { name: 'helper' }),
      helperDelayMs,
    ),
  });
  return new Agency({
    name,
    entryPoints: [front],
    communicationFlows: [[front, helper]],
    threads: new ThreadManager({ store }),
  });
}

/** A model that answers like `inner` after `delayMs` (so that concurrent calls overlap). */
export class DelayedModel implements Model {
  constructor(
    readonly inner: ScriptedModel,
    readonly delayMs: number,
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return this.inner.getResponse(request);
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    yield* this.inner.getStreamedResponse(request);
  }
}

/**
 * A model that, on each call, reports it was called, then waits until `release` resolves (or the
 * request's signal aborts, which it reports) before answering like `inner`.
 */
export class GatedModel implements Model {
  calls = 0;
  readonly called = deferred();
  readonly sawAbort = deferred();
  readonly release = deferred();

  constructor(readonly inner: ScriptedModel) {}

  async #wait(request: ModelRequest): Promise<void> {
    this.calls += 1;
    request.signal?.addEventListener('abort', () => this.sawAbort.resolve(), { once: true });
    this.called.resolve();
    await this.release.promise;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    await this.#wait(request);
    return this.inner.getResponse(request);
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    await this.#wait(request);
    yield* this.inner.getStreamedResponse(request);
  }
}

/** Writes an executable Node script agent: `body` sees `msg` (the parsed stdin) and calls `reply(obj)`. */
export function writeScript(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  writeFileSync(
    file,
    `#!/usr/bin/env node\nlet raw = '';\nprocess.stdin.on('data', (c) => (raw += c));\nprocess.stdin.on('end', async () => {\n  const msg = JSON.parse(raw);\n  const reply = (o) => process.stdout.write(JSON.stringify(o));\n  ${body}\n});\n`,
  );
  chmodSync(file, 0o755);
  return `./${name}`;
}

/** Stored items of every thread of a chat. */
export async function chatItems(store: ThreadStore, chatId: string) {
  const out = new Map<string, Awaited<ReturnType<ThreadStore['readItems']>>>();
  for (const record of await store.listThreads({ chatId }))
    out.set(record.threadId, await store.readItems(record.threadId));
  return out;
}

/** callIds of function calls without their result, and results without their call. */
export function unmatchedCalls(items: Awaited<ReturnType<ThreadStore['readItems']>>): string[] {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const { item } of items) {
    if (item.type === 'function_call') calls.add(item.callId);
    if (item.type === 'function_call_result') results.add(item.callId);
  }
  return [...calls]
    .filter((id) => !results.has(id))
    .concat([...results].filter((id) => !calls.has(id)));
}

/** The JSON body of a response, untyped (tests check it with expect). */
export function json(response: Response): Promise<any> {
  return response.json();
}

/**
 * An ensembles dir with `steps`: `first` answers at once, then `slow` waits `SLOW_MS` (from the
 * environment when the script runs; default 5 s), so a run can be cancelled after one turn.
 */
export function slowStepsEnsembles(): string {
  const dir = tempDir();
  const first = writeScript(dir, 'first.js', `reply({ success: true, data: { step: 1 } });`);
  const slow = writeScript(
    dir,
    'slow.js',
    `setTimeout(() => reply({ success: true, data: { step: 2 } }), Number(process.env.SLOW_MS ?? 5000));`,
  );
  writeFileSync(
    path.join(dir, 'steps.yaml'),
    `name: steps\nagents:\n  - name: first\n    script: ${first}\n  - name: slow\n    script: ${slow}\n    depends_on: [first]\n`,
  );
  return dir;
}
