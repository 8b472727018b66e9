/**
 * Server benchmark: `colloquy serve` against a `node:http` server calling the SDK's Runner on the
 * same agents with sessions (see bench/serverTarget.ts for the three targets). Bounded, loopback
 * only, interleaved: every round runs each scenario (plain and streaming `/v1/chat/completions`,
 * `POST /agencies/bench/responses`) at 1, 10 and 50 clients against each target in turn, a fixed
 * number of requests per slice. Reports throughput, p50/p99 latency, server CPU per request
 * (from /proc, the target's own process: all threads, and its main thread) and peak RSS, and the
 * ratios Colloquy / SDK.
 * `--floor` adds the HTTP layers alone (colloquy-floor / node-floor: no agent work), whose CPU
 * per request is the least either server can cost; their ratio is against node-floor.
 * `--compare DIR` adds the Colloquy targets of another checkout (e.g. the commit before a change,
 * `git worktree add DIR <commit>` or `git archive <commit> src bench | tar -x -C DIR`), named
 * `<target>@base` and run in the same interleaved rounds: an A/B of a change on a busy machine.
 *   npx tsx bench/server.ts [--rounds 3] [--requests 300] [--clients 1,10,50] [--scenarios plain,stream,rest] [--floor] [--compare DIR]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}
const rounds = flag('rounds', 3);
const perSlice = flag('requests', 300);
const clientsAt = process.argv.indexOf('--clients');
const clientCounts =
  clientsAt > 0 ? process.argv[clientsAt + 1]!.split(',').map(Number) : [1, 10, 50];
const allScenarios = ['plain', 'stream', 'rest'] as const;
type Scenario = (typeof allScenarios)[number];
const scenariosAt = process.argv.indexOf('--scenarios');
const scenarios: readonly Scenario[] =
  scenariosAt > 0
    ? allScenarios.filter((s) => process.argv[scenariosAt + 1]!.split(',').includes(s))
    : allScenarios;
const allTargets = [
  'colloquy-sqlite',
  'colloquy-memory',
  'sdk',
  'colloquy-floor',
  'node-floor',
] as const;
/** A target of this checkout, or `<target>@base`: the same target of the `--compare` checkout. */
type TargetName = (typeof allTargets)[number] | `${(typeof allTargets)[number]}@base`;
const compareAt = process.argv.indexOf('--compare');
const compareDir = compareAt > 0 ? process.argv[compareAt + 1] : undefined;
const ownTargets: readonly TargetName[] = process.argv.includes('--floor')
  ? allTargets
  : allTargets.slice(0, 3);
const targetNames: readonly TargetName[] = compareDir
  ? ownTargets.flatMap((name) =>
      name.startsWith('colloquy-') ? [name, `${name}@base` as TargetName] : [name],
    )
  : ownTargets;
/** The target each one's ratios are against. */
const baseline = (name: TargetName): TargetName => (name.includes('-floor') ? 'node-floor' : 'sdk');

interface Target {
  name: TargetName;
  child: ChildProcess;
  url: string;
}

async function start(name: TargetName): Promise<Target> {
  const [kind, base] = name.split('@') as [string, string | undefined];
  const script = base ? join(compareDir!, 'bench/serverTarget.ts') : 'bench/serverTarget.ts';
  const child = spawn(process.execPath, ['--import', 'tsx', script, kind], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, COLLOQUY_LOG_LEVEL: 'error' },
  });
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s`)), 60_000);
    lines.on('line', (line) => {
      if (!line.startsWith('{"port"')) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before listening`)));
  });
  return { name, child, url: `http://127.0.0.1:${port}` };
}

/** CPU time (ms, user + system) of a /proc `stat` file: a process's, or one thread's. */
function cpuOf(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime (fields 14, 15)
}

/**
 * The target's CPU time so far (ms: all threads, and its main thread alone, where JavaScript runs
 * and which bounds its throughput; the rest is GC and compiler threads) and peak RSS (MiB).
 */
function procStats(pid: number): { cpuMs: number; mainMs: number; peakMiB: number } {
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return {
    cpuMs: cpuOf(`/proc/${pid}/stat`),
    mainMs: cpuOf(`/proc/${pid}/task/${pid}/stat`),
    peakMiB: Number(hwm?.[1] ?? 0) / 1024,
  };
}

let seq = 0;
async function request(target: Target, scenario: Scenario): Promise<void> {
  const chat = `bench-${seq++}`;
  const init = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const res =
    scenario === 'rest'
      ? await fetch(`${target.url}/agencies/bench/responses`, init({ message: 'hi', chatId: chat }))
      : await fetch(
          `${target.url}/v1/chat/completions`,
          init({
            model: 'bench',
            user: chat,
            stream: scenario === 'stream',
            messages: [{ role: 'user', content: 'hi' }],
          }),
        );
  const text = await res.text();
  if (res.status !== 200)
    throw new Error(`${target.name} ${scenario}: ${res.status} ${text.slice(0, 300)}`);
  const answer = scenario === 'stream' ? streamedText(text) : text;
  if (!answer.includes('A got: B says hello'))
    throw new Error(`${target.name} ${scenario}: unexpected answer ${text.slice(0, 300)}`);
}

/** The text of an SSE stream of `chat.completion.chunk`s. */
function streamedText(sse: string): string {
  return sse
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => {
      const chunk = JSON.parse(line.slice(6)) as { choices: { delta: { content?: string } }[] };
      return chunk.choices[0]?.delta.content ?? '';
    })
    .join('');
}

interface Slice {
  wallMs: number;
  cpuMs: number;
  mainMs: number;
  latencies: number[];
}

async function slice(target: Target, scenario: Scenario, clients: number): Promise<Slice> {
  const latencies: number[] = [];
  let left = perSlice;
  const before = procStats(target.child.pid!);
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (left-- > 0) {
        const t0 = performance.now();
        await request(target, scenario);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const wallMs = performance.now() - start;
  const after = procStats(target.child.pid!);
  return {
    wallMs,
    cpuMs: after.cpuMs - before.cpuMs,
    mainMs: after.mainMs - before.mainMs,
    latencies,
  };
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const targets: Target[] = [];
const deadline = setTimeout(() => {
  console.error('bench/server.ts: stopped after 10 minutes');
  for (const t of targets) t.child.kill('SIGKILL');
  process.exit(1);
}, 600_000);
try {
  for (const name of targetNames) targets.push(await start(name));
  // Warm up every target and route.
  for (const t of targets)
    for (const s of scenarios) for (let i = 0; i < 50; i++) await request(t, s);
  const results = new Map<string, Slice[]>();
  for (let round = 0; round < rounds; round++)
    for (const scenario of scenarios)
      for (const clients of clientCounts) {
        const order = round % 2 === 0 ? targets : [...targets].reverse();
        for (const t of order) {
          const key = `${scenario}|${clients}|${t.name}`;
          results.set(key, [...(results.get(key) ?? []), await slice(t, scenario, clients)]);
        }
      }
  const rows: Record<string, string | number>[] = [];
  for (const scenario of scenarios)
    for (const clients of clientCounts) {
      for (const name of targetNames) {
        const base = summarize(results.get(`${scenario}|${clients}|${baseline(name)}`)!);
        const s = summarize(results.get(`${scenario}|${clients}|${name}`)!);
        const own = baseline(name) === name;
        rows.push({
          scenario,
          clients,
          target: name,
          'req/s': Math.round(s.rps),
          'p50 ms': s.p50.toFixed(2),
          'p99 ms': s.p99.toFixed(2),
          'cpu ms/req': s.cpuPerReq.toFixed(3),
          'main ms/req': s.mainPerReq.toFixed(3),
          'tput ratio': own ? '' : (s.rps / base.rps).toFixed(2),
          'cpu ratio': own ? '' : (s.cpuPerReq / base.cpuPerReq).toFixed(2),
          'main ratio': own ? '' : (s.mainPerReq / base.mainPerReq).toFixed(2),
        });
      }
    }
  console.table(rows);
  for (const t of targets)
    console.log(`${t.name}: peak RSS ${procStats(t.child.pid!).peakMiB.toFixed(0)} MiB`);
} finally {
  clearTimeout(deadline);
  for (const t of targets) t.child.kill('SIGTERM');
}

/** Medians over rounds of each slice's throughput and CPU per request; latency over all requests. */
function summarize(slices: Slice[]): {
  rps: number;
  p50: number;
  p99: number;
  cpuPerReq: number;
  mainPerReq: number;
} {
  const median = (xs: number[]): number => pct(xs, 50);
  const all = slices.flatMap((s) => s.latencies);
  return {
    rps: median(slices.map((s) => (perSlice * 1000) / s.wallMs)),
    p50: pct(all, 50),
    p99: pct(all, 99),
    cpuPerReq: median(slices.map((s) => s.cpuMs / perSlice)),
    mainPerReq: median(slices.map((s) => s.mainMs / perSlice)),
  };
}
