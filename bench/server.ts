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
 *
 * Ratios are per round: each slice against its baseline's slice of the same round (run next to
 * it, alternating which goes first), then the median over rounds, with the middle half of the
 * rounds' ratios shown as the spread. A slice of a few hundred ms moves with whatever else the
 * machine does in it (another process, a major GC of the target's growing heap: every request
 * opens a chat that both servers keep), so one slice's ratio is not the figure; many short
 * slices and their median are. Warm-up (`--warmup` requests per target and route, not measured)
 * lets the JIT settle first. Besides throughput, latency and CPU, each target reports its GC
 * pauses per request and its longest one, how busy its event loop was (`loop busy`: near 1, the
 * server always had work waiting, so it was the bottleneck; well below, it waited for the client)
 * and how much of a CPU its main thread got (`main share`: main-thread CPU time / wall time; a
 * saturated server's throughput is this share over its main-thread CPU per request, and the share
 * is set by whatever else runs on the machine), and the bench reports its own CPU per request
 * (the load generator shares the machine's cores).
 * `--targets ...,sdk-nested --baseline sdk-nested` sets the ratios against an SDK server that
 * streams the nested agent's run too (see bench/serverTarget.ts), for information.
 *   npx tsx bench/server.ts [--rounds 8] [--requests 100] [--warmup 300] [--clients 1,10,50]
 *     [--scenarios plain,stream,rest] [--targets colloquy-memory,sdk] [--floor] [--compare DIR] [--slices]
 *     [--baseline sdk|sdk-nested] [--built]
 * `--built` runs Colloquy from dist/ (after `npm run build`; with `--compare`, DIR's dist/ too), as
 * an installed package runs: through tsx, Colloquy's sources pay esbuild's keepNames helper for
 * every named function made per call, which the SDK's compiled code does not.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}
const rounds = flag('rounds', 8);
const perSlice = flag('requests', 100);
const warmup = flag('warmup', 300);
const printSlices = process.argv.includes('--slices');
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
  'sdk-nested',
  'colloquy-floor',
  'node-floor',
] as const;
/** A target of this checkout, or `<target>@base`: the same target of the `--compare` checkout. */
type TargetName = (typeof allTargets)[number] | `${(typeof allTargets)[number]}@base`;
const compareAt = process.argv.indexOf('--compare');
const compareDir = compareAt > 0 ? process.argv[compareAt + 1] : undefined;
const targetsAt = process.argv.indexOf('--targets');
const ownTargets: readonly TargetName[] =
  targetsAt > 0
    ? allTargets.filter((t) => process.argv[targetsAt + 1]!.split(',').includes(t))
    : process.argv.includes('--floor')
      ? allTargets.filter((t) => t !== 'sdk-nested')
      : allTargets.filter((t) => t !== 'sdk-nested' && !t.endsWith('-floor'));
const targetNames: readonly TargetName[] = compareDir
  ? ownTargets.flatMap((name) =>
      name.startsWith('colloquy-') ? [name, `${name}@base` as TargetName] : [name],
    )
  : ownTargets;
/** `--built`: the Colloquy targets run the compiled dist/ (`npm run build`), as users run it. */
const builtFlag = process.argv.includes('--built') ? ['--built'] : [];
const baselineAt = process.argv.indexOf('--baseline');
/** The SDK target the agent targets' ratios are against: `sdk`, or `--baseline sdk-nested`. */
const sdkBaseline = (baselineAt > 0 ? process.argv[baselineAt + 1] : 'sdk') as TargetName;
const agentTargets = ownTargets.filter((t) => !t.endsWith('-floor'));
if (
  agentTargets.length > 0 &&
  (!['sdk', 'sdk-nested'].includes(sdkBaseline) || !agentTargets.includes(sdkBaseline))
)
  throw new Error(
    `bench/server.ts: --baseline must be sdk or sdk-nested and among the targets (--targets ...,${sdkBaseline}).`,
  );
/** The target each one's ratios are against. */
const baseline = (name: TargetName): TargetName =>
  name.includes('-floor') ? 'node-floor' : sdkBaseline;

interface Target {
  name: TargetName;
  child: ChildProcess;
  url: string;
}

async function start(name: TargetName): Promise<Target> {
  const [kind, base] = name.split('@') as [string, string | undefined];
  const script = base ? join(compareDir!, 'bench/serverTarget.ts') : 'bench/serverTarget.ts';
  const child = spawn(process.execPath, ['--import', 'tsx', script, kind, ...builtFlag], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
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

/**
 * CPU time (ms) a thread has run, from its /proc `schedstat` (nanoseconds: `stat`'s utime and
 * stime count 10 ms ticks, ±7% of a 100-request slice).
 */
function threadCpuMs(pid: number, tid: number | string): number {
  return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

/**
 * The target's CPU time so far (ms: all threads, and its main thread alone, where JavaScript runs
 * and which bounds its throughput; the rest is GC and compiler threads) and peak RSS (MiB).
 */
function procStats(pid: number): { cpuMs: number; mainMs: number; peakMiB: number } {
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  let cpuMs = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      cpuMs += threadCpuMs(pid, tid);
    } catch (error) {
      // A thread that ended since the listing has nothing more to count.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return { cpuMs, mainMs: threadCpuMs(pid, pid), peakMiB: Number(hwm?.[1] ?? 0) / 1024 };
}

/** What a target's process reports over IPC (see `reportStats` in bench/serverTarget.ts). */
interface TargetStats {
  gc: { count: number; totalMs: number; maxMs: number };
  loop: { idleMs: number; activeMs: number };
}

function targetStats(target: Target): Promise<TargetStats> {
  return new Promise((resolve) => {
    target.child.once('message', (message) => resolve(message as TargetStats));
    target.child.send('stats');
  });
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
  /** The target's GC pauses in the slice: in all, and the longest (ms). */
  gcMs: number;
  gcMaxMs: number;
  /** The share of the slice the target's event loop was running JavaScript or callbacks. */
  loopBusy: number;
  /** The bench's own CPU time in the slice (the load generator), ms. */
  clientMs: number;
}

async function slice(target: Target, scenario: Scenario, clients: number): Promise<Slice> {
  const latencies: number[] = [];
  let left = perSlice;
  const stats = await targetStats(target);
  const before = procStats(target.child.pid!);
  const client = process.cpuUsage();
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
  const clientUsage = process.cpuUsage(client);
  const after = procStats(target.child.pid!);
  const statsAfter = await targetStats(target);
  return {
    wallMs,
    cpuMs: after.cpuMs - before.cpuMs,
    mainMs: after.mainMs - before.mainMs,
    latencies,
    gcMs: statsAfter.gc.totalMs - stats.gc.totalMs,
    gcMaxMs: statsAfter.gc.maxMs,
    loopBusy: (statsAfter.loop.activeMs - stats.loop.activeMs) / wallMs,
    clientMs: (clientUsage.user + clientUsage.system) / 1000,
  };
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
/** The median; of an even count, the mean of the middle two (not the upper one). */
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const targets: Target[] = [];
const deadline = setTimeout(() => {
  console.error('bench/server.ts: stopped after 20 minutes');
  for (const t of targets) t.child.kill('SIGKILL');
  process.exit(1);
}, 1_200_000);
try {
  for (const name of targetNames) targets.push(await start(name));
  // Warm up every target and route (not measured): the JIT keeps getting faster for a while.
  for (const t of targets)
    for (const s of scenarios) {
      let left = warmup;
      await Promise.all(
        Array.from({ length: Math.min(10, warmup) }, async () => {
          while (left-- > 0) await request(t, s);
        }),
      );
    }
  const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`load average before: ${load()}`);
  const results = new Map<string, Slice[]>();
  for (let round = 0; round < rounds; round++)
    for (const scenario of scenarios)
      for (const clients of clientCounts) {
        const order = round % 2 === 0 ? targets : [...targets].reverse();
        for (const t of order) {
          const key = `${scenario}|${clients}|${t.name}`;
          const s = await slice(t, scenario, clients);
          results.set(key, [...(results.get(key) ?? []), s]);
          if (printSlices) console.log(sliceLine(round, key, s));
        }
      }
  console.log(`load average after: ${load()}`);
  const rows: Record<string, string | number>[] = [];
  for (const scenario of scenarios)
    for (const clients of clientCounts) {
      for (const name of targetNames) {
        const baseSlices = results.get(`${scenario}|${clients}|${baseline(name)}`)!;
        const slices = results.get(`${scenario}|${clients}|${name}`)!;
        const s = summarize(slices);
        const own = baseline(name) === name;
        const ratio = (of: (x: Slice) => number): string =>
          own ? '' : spread(slices.map((x, i) => of(x) / of(baseSlices[i]!)));
        rows.push({
          scenario,
          clients,
          target: name,
          'req/s': Math.round(s.rps),
          'p50 ms': s.p50.toFixed(1),
          'p99 ms': s.p99.toFixed(1),
          'cpu ms/req': ms(s.cpuPerReq),
          'main ms/req': ms(s.mainPerReq),
          'main share': s.mainShare.toFixed(2),
          'gc ms/req': ms(s.gcPerReq),
          'gc max': s.gcMax.toFixed(0),
          'loop busy': s.loopBusy.toFixed(2),
          'bench ms/req': ms(s.clientPerReq),
          'tput ratio': ratio((x) => 1 / x.wallMs),
          'cpu ratio': ratio((x) => x.cpuMs),
          'main ratio': ratio((x) => x.mainMs),
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

/** Medians over rounds of each slice's figures; latency over all requests; the longest GC pause. */
function summarize(slices: Slice[]): {
  rps: number;
  p50: number;
  p99: number;
  cpuPerReq: number;
  mainPerReq: number;
  gcPerReq: number;
  gcMax: number;
  loopBusy: number;
  mainShare: number;
  clientPerReq: number;
} {
  const all = slices.flatMap((s) => s.latencies);
  const perReq = (of: (s: Slice) => number): number => median(slices.map((s) => of(s) / perSlice));
  return {
    rps: median(slices.map((s) => (perSlice * 1000) / s.wallMs)),
    p50: pct(all, 50),
    p99: pct(all, 99),
    cpuPerReq: perReq((s) => s.cpuMs),
    mainPerReq: perReq((s) => s.mainMs),
    gcPerReq: perReq((s) => s.gcMs),
    gcMax: Math.max(...slices.map((s) => s.gcMaxMs)),
    loopBusy: median(slices.map((s) => s.loopBusy)),
    mainShare: median(slices.map((s) => s.mainMs / s.wallMs)),
    clientPerReq: perReq((s) => s.clientMs),
  };
}

/** Milliseconds per request: three decimals below 1 ms (the HTTP floors), else two. */
function ms(value: number): string {
  return value.toFixed(value < 1 ? 3 : 2);
}

/** The median of per-round ratios, with the middle half of them: `1.02 (0.95–1.10)`. */
function spread(ratios: number[]): string {
  if (ratios.length < 4) return median(ratios).toFixed(2);
  return `${median(ratios).toFixed(2)} (${pct(ratios, 25).toFixed(2)}–${pct(ratios, 75).toFixed(2)})`;
}

/** One slice's figures (`--slices`), to see what moved a ratio. */
function sliceLine(round: number, key: string, s: Slice): string {
  const n = perSlice;
  return (
    `round ${round} ${key}: ${((n * 1000) / s.wallMs).toFixed(0)} req/s, cpu ${(s.cpuMs / n).toFixed(2)} ms/req, ` +
    `main ${(s.mainMs / n).toFixed(2)}, gc ${s.gcMs.toFixed(0)} ms (max ${s.gcMaxMs.toFixed(0)}), ` +
    `loop busy ${s.loopBusy.toFixed(2)}, bench ${(s.clientMs / n).toFixed(2)} ms/req, ` +
    `p50 ${pct(s.latencies, 50).toFixed(1)} p99 ${pct(s.latencies, 99).toFixed(1)} ms`
  );
}
