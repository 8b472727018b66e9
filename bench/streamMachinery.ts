/**
 * The HTTP and run machinery of a streamed `/v1/chat/completions` alone: a server whose calls
 * replay the events of a real two-agent call (A asks B once, captured at start-up with the same
 * checkout's agency) with no agent work, so that what is measured is the background run, its
 * follower, the route and the SSE response. `--compare DIR` runs DIR's checkout beside this one,
 * interleaved, each in its own process (CPU from /proc: all threads, and the main thread alone).
 *   npx tsx bench/streamMachinery.ts [--rounds 6] [--requests 400] [--compare DIR]
 * A target alone: `npx tsx bench/streamMachinery.ts --target DIR` prints `{"port": N}`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

const flag = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
};

/** A server on `dir`'s code whose streamed calls replay one real call's events. */
async function target(dir: string): Promise<void> {
  const load = (path: string) => import(resolve(dir, 'src', path));
  const { Agency } = await load('agency/agency.ts');
  const { Agent } = await load('agency/agent.ts');
  const { ScriptedModel } = await load('models/scriptedModel.ts');
  const { toolOutputsSinceUser } = await load('models/requestText.ts');
  const { MemoryStore } = await load('stores/memory.ts');
  const { ThreadManager } = await load('threads/threadManager.ts');
  const { createRegistry } = await load('server/registry.ts');
  const { inProcessExecutor } = await load('server/executor.ts');
  const { startServer } = await load('server/serve.ts');
  const { streamCall } = await load('agency/streaming.ts');
  const { CallTracker } = await load('server/callTracker.ts');
  const store = new MemoryStore();
  const b = new Agent({
    name: 'B',
    instructions: 'x',
    model: new ScriptedModel(() => 'B says hello'),
  });
  const a = new Agent({
    name: 'A',
    instructions: 'x',
    model: new ScriptedModel((request: never) => {
      const outputs = toolOutputsSinceUser(request);
      return outputs.length === 0
        ? {
            tool: 'send_message',
            args: { recipient: 'B', message: 'hi', additionalInstructions: null },
          }
        : `A got: ${outputs[0]}`;
    }),
  });
  const threads = new ThreadManager({ store });
  const agency = new Agency({
    name: 'bench',
    entryPoints: [a],
    communicationFlows: [[a, b]],
    threads,
  });
  const events: Array<{ type: string; result?: object }> = [];
  for await (const event of agency.getResponseStream('hi', { chatId: 'capture' }))
    events.push(event);
  const result = events.pop()!.result!;
  const registry = createRegistry({ agencies: [agency], store, ownsStore: true });
  const executor = inProcessExecutor(registry);
  const tracker = new CallTracker();
  const nextTurn = () => new Promise((done) => setImmediate(done));
  const server = await startServer({
    port: 0,
    registry,
    handleSignals: true,
    env: {},
    executor: {
      ...executor,
      calls: {
        ...executor.calls,
        // The call's events in three bursts (its model calls and tool call end apart), fresh objects.
        getResponseStream: (name: string, _message: unknown, options: { chatId?: string }) =>
          tracker.trackStream(name, options, (signal: AbortSignal) =>
            streamCall(signal, async (_signal: AbortSignal, emit: (event: unknown) => void) => {
              for (let i = 0; i < events.length; i++) {
                if (i === 4 || i === 11) await nextTurn();
                emit(structuredClone(events[i]));
              }
              await nextTurn();
              return { ...result, chatId: options.chatId };
            }),
          ),
      },
    },
  });
  console.log(JSON.stringify({ port: server.port }));
}

interface Running {
  name: string;
  child: ChildProcess;
  url: string;
  cpu: number;
  main: number;
  wall: number;
  count: number;
}

async function start(name: string, dir: string): Promise<Running> {
  const script = resolve('bench/streamMachinery.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, '--target', dir], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, COLLOQUY_LOG_LEVEL: 'error' },
  });
  const port = await new Promise<number>((done, fail) => {
    child.once('exit', (code) => fail(new Error(`${name} exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{"port"')) done((JSON.parse(line) as { port: number }).port);
    });
  });
  return { name, child, url: `http://127.0.0.1:${port}`, cpu: 0, main: 0, wall: 0, count: 0 };
}

/** CPU ms (user + system) of a /proc stat file. */
function cpuOf(path: string): number {
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

let seq = 0;
async function streamed(target: Running): Promise<void> {
  const res = await fetch(`${target.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'bench',
      stream: true,
      user: `bench-${seq++}`,
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });
  const text = await res.text();
  if (!text.includes('A got') || !text.endsWith('data: [DONE]\n\n'))
    throw new Error(`${target.name}: unexpected stream ${text.slice(0, 300)}`);
}

async function main(): Promise<void> {
  const rounds = Number(flag('rounds') ?? 6);
  const perSlice = Number(flag('requests') ?? 400);
  const compare = flag('compare');
  const targets = [await start('this', process.cwd())];
  if (compare) targets.push(await start('base', resolve(compare)));
  try {
    for (const t of targets) for (let i = 0; i < 300; i++) await streamed(t); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const t of round % 2 ? [...targets].reverse() : targets) {
        const pid = t.child.pid!;
        const [cpu, mainCpu, began] = [
          cpuOf(`/proc/${pid}/stat`),
          cpuOf(`/proc/${pid}/task/${pid}/stat`),
          performance.now(),
        ];
        for (let i = 0; i < perSlice; i++) await streamed(t);
        t.wall += performance.now() - began;
        t.cpu += cpuOf(`/proc/${pid}/stat`) - cpu;
        t.main += cpuOf(`/proc/${pid}/task/${pid}/stat`) - mainCpu;
        t.count += perSlice;
      }
    }
    console.table(
      targets.map((t) => ({
        target: t.name,
        'cpu ms/req': (t.cpu / t.count).toFixed(3),
        'main ms/req': (t.main / t.count).toFixed(3),
        'wall ms/req': (t.wall / t.count).toFixed(3),
      })),
    );
  } finally {
    for (const t of targets) t.child.kill('SIGINT');
  }
}

const own = flag('target');
await (own ? target(own) : main());
