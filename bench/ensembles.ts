// Ensemble benchmark (offline): `npx tsx bench/ensembles.ts [--turns 100,1000]`.
// Every figure is measured against a baseline taken in the same run:
// 1. Scheduler overhead per turn: one self-triggering LLM agent (a scripted model) run for N
//    turns by runEnsemble on a SQLite store, minus the time its N model calls took in the SDK
//    Runner, measured in the same run (Runner.prototype.run is timed); what is left is what
//    Colloquy adds (scheduling, checkpoints, store). The agent keeps its conversation: the Runner
//    is given the turn's new message only and the model sees the earlier items through
//    PriorInputModel, so the Runner's cost does not grow with the history. For reference the
//    same calls are also run through a bare Runner handed the whole history on every call, as an
//    SDK user would write it (the SDK clones and keys every input item, so that cost grows).
//    Printed for each N and as the growth from the smallest to the largest N (targets: <= 1 ms
//    per turn at 1,000 turns, growth <= 1.5x), as the mean (total minus Runner, over N) and as
//    the median of the per-turn gaps between Runner calls (robust to the OS preempting the
//    process on a loaded machine), plus the early/late turns of the longest run.
//    Garbage-collection pauses are summed per turn, between Runner calls and inside them, for the
//    first and last tenth of the longest run (a pause is paid wherever it falls, so garbage that
//    grew with the conversation would show here).
//    Then the same ensemble with Runner.run stubbed (the scheduler alone, no SDK work). The
//    store writes per turn are counted too (one SQLite transaction, `appendMany`, is the target).
// 2. Parallel ratio: 8 script agents that each sleep 200 ms; wall time over the longest agent's
//    execution time (target <= 1.2).
//    Run with the spawn helper and with direct spawns, interleaved.
// 4. Script chain: 40 script agents in a chain (each depends on the one before), run with the
//    spawn helper and with direct spawns in alternating rounds: CPU per agent of this process plus
//    the helper (what Colloquy pays to run a script), and with the scripts' own CPU added.
//    `--parts chain,parallel` runs only those parts (default: all).
// 3. `colloquy invoke` start-up: wall time of the CLI running a one-agent ensemble, against
//    `node -e 0`.
import { execFileSync } from 'node:child_process';
import { PerformanceObserver } from 'node:perf_hooks';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, Runner } from '@openai/agents-core';
import type { AgentInputItem } from '@openai/agents-core';
import { parseEnsemble } from '../src/ensembles/load.js';
import { runEnsemble } from '../src/ensembles/run.js';
import { ScriptedModel } from '../src/models/scriptedModel.js';
import { SqliteStore } from '../src/stores/sqlite.js';
import { spawnHelperPid, useSpawnHelper } from '../src/ensembles/spawnHelper.js';
import { readFileSync } from 'node:fs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const turnsArg = process.argv.indexOf('--turns');
const TURN_COUNTS = (turnsArg > 0 ? process.argv[turnsArg + 1]! : '100,1000')
  .split(',')
  .map(Number);

const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-bench-'));
const model = () => new ScriptedModel(['{"ok": true}'], { repeatLast: true });

/** The same calls without Colloquy: a Runner, the agent's growing history, nothing saved. */
async function bareRunner(turns: number): Promise<number> {
  const runner = new Runner({ tracingDisabled: true });
  const agent = new Agent({ name: 'talker', instructions: 'x', model: model() });
  let history: AgentInputItem[] = [];
  const started = performance.now();
  for (let i = 0; i < turns; i++) {
    const result = await runner.run(agent, [...history, { role: 'user', content: `Task: ${i}` }]);
    history = result.history;
  }
  return performance.now() - started;
}

/** CPU milliseconds (user + system) since `since`. */
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/**
 * Wall and CPU time spent inside Runner.run (by the ensemble's LLM agents), accumulated while
 * counting. The agent runs one call at a time, so the CPU used during a call is the Runner's.
 */
let inRunner = 0;
let inRunnerCpu = 0;
/**
 * The times at which Runner.run calls started and ended: the gap between one call's end and the
 * next call's start is what Colloquy spent on that turn (recording it, checkpointing, planning
 * and preparing the next), so the gaps give a per-turn distribution, not only a mean.
 */
let marks: { start: number; end: number }[] = [];
/** Garbage-collection pauses (start/end, ms), to tell the collector's time from ours in the gaps. */
let pauses: { start: number; end: number }[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
}).observe({ entryTypes: ['gc'] });

/** GC milliseconds per turn inside the given windows (Runner calls or the gaps between them). */
function gcPerTurn(windows: { start: number; end: number }[]): number {
  let total = 0;
  for (const window of windows)
    for (const pause of pauses)
      total += Math.max(0, Math.min(window.end, pause.end) - Math.max(window.start, pause.start));
  return windows.length ? total / windows.length : 0;
}

const originalRun = Runner.prototype.run;
Runner.prototype.run = async function timedRun(this: Runner, ...args: unknown[]) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  try {
    return await (originalRun as (...a: unknown[]) => Promise<unknown>).apply(this, args);
  } finally {
    const ended = performance.now();
    marks.push({ start: started, end: ended });
    inRunner += ended - started;
    inRunnerCpu += cpuMs(cpu);
  }
} as typeof Runner.prototype.run;

/** The windows between Runner calls of the last run (start of the run to the first call, ...). */
function gapWindows(runStarted: number): { start: number; end: number }[] {
  let previous = runStarted;
  return marks.map((mark) => {
    const window = { start: previous, end: mark.start };
    previous = mark.end;
    return window;
  });
}

/** The per-turn gaps of the last run (ms): run start to first call, between calls, last call to the end. */
function turnGaps(runStarted: number, runEnded: number): number[] {
  const gaps: number[] = [];
  let previous = runStarted;
  for (const mark of marks) {
    gaps.push(mark.start - previous);
    previous = mark.end;
  }
  if (gaps.length) gaps[gaps.length - 1]! += runEnded - previous;
  return gaps;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : NaN;
};

/** Store writes by method, counted while an ensemble runs (each is one SQLite transaction). */
const writes: Record<string, number> = {};
for (const method of [
  'append',
  'appendMany',
  'setMetadata',
  'putCheckpoint',
  'rollback',
] as const) {
  const original = SqliteStore.prototype[method] as (...args: unknown[]) => Promise<unknown>;
  (SqliteStore.prototype as unknown as Record<string, unknown>)[method] = function counted(
    this: SqliteStore,
    ...args: unknown[]
  ) {
    writes[method] = (writes[method] ?? 0) + 1;
    return original.apply(this, args);
  };
}

/** The writes counted since the last call, per turn, e.g. `appendMany 1.00`. */
function writesPerTurn(turns: number): string {
  const text = Object.entries(writes)
    .map(([method, count]) => `${method} ${(count / turns).toFixed(2)}`)
    .join(', ');
  for (const method of Object.keys(writes)) delete writes[method];
  return text;
}

async function ensembleTurns(turns: number): Promise<{
  ms: number;
  runnerMs: number;
  cpuMs: number;
  runnerCpuMs: number;
  reason: string;
  count: number;
  gaps: number[];
  writes: string;
  /** GC ms per turn in the first and last tenth: between Runner calls, and inside them. */
  gc: { gapEarly: number; gapLate: number; runnerEarly: number; runnerLate: number };
}> {
  const ensemble = parseEnsemble(
    `name: loop\nagents:\n  - name: talker\n    model_profile: p\n    system_prompt: x\n` +
      `    depends_on: [{ agent_name: talker, condition: 'true', max_executions: ${turns + 1} }]\n` +
      `    conversation: { max_turns: ${turns + 1}, triggers_conversation: true }\n` +
      `conversation_limits: { max_total_turns: ${turns}, timeout_seconds: 3600 }\n`,
    { baseDir: dir },
  );
  const store = new SqliteStore({ path: path.join(dir, `turns-${turns}-${Date.now()}.db`) });
  try {
    inRunner = 0;
    inRunnerCpu = 0;
    marks = [];
    pauses = [];
    writesPerTurn(1);
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await runEnsemble(ensemble, { store, createModel: model, input: 'go' });
    const ended = performance.now();
    // GC entries reach the observer from the event loop, which a run of scripted models that
    // resolve at once hardly ever yields to: let them arrive.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const gaps = gapWindows(started);
    const tenth = Math.max(1, Math.floor(marks.length / 10));
    return {
      gc: {
        gapEarly: gcPerTurn(gaps.slice(1, tenth + 1)),
        gapLate: gcPerTurn(gaps.slice(-tenth)),
        runnerEarly: gcPerTurn(marks.slice(1, tenth + 1)),
        runnerLate: gcPerTurn(marks.slice(-tenth)),
      },
      ms: ended - started,
      gaps: turnGaps(started, ended),
      runnerMs: inRunner,
      cpuMs: cpuMs(cpu),
      runnerCpuMs: inRunnerCpu,
      reason: result.completion_reason,
      count: result.turn_count,
      writes: writesPerTurn(turns),
    };
  } finally {
    await store.close();
  }
}

async function perTurnOverhead(): Promise<void> {
  await ensembleTurns(20); // warm-up (module loading, JIT)
  await bareRunner(20);
  const overheads: number[] = [];
  const medians: number[] = [];
  const cpuOverheads: number[] = [];
  let lastGaps: number[] = [];
  let lastGc: Awaited<ReturnType<typeof ensembleTurns>>['gc'] | undefined;
  for (const turns of TURN_COUNTS) {
    const baseline = await bareRunner(turns);
    const run = await ensembleTurns(turns);
    const overhead = (run.ms - run.runnerMs) / turns;
    const cpuOverhead = (run.cpuMs - run.runnerCpuMs) / turns;
    const typical = median(run.gaps);
    overheads.push(overhead);
    medians.push(typical);
    cpuOverheads.push(cpuOverhead);
    lastGaps = run.gaps;
    lastGc = run.gc;
    console.log(
      `${turns} turns: runEnsemble on SQLite ${run.ms.toFixed(0)} ms (${run.count} turns, ${run.reason}), ` +
        `of which SDK Runner ${run.runnerMs.toFixed(0)} ms -> scheduler overhead ${overhead.toFixed(3)} ms/turn mean, ` +
        `${typical.toFixed(3)} ms/turn median (CPU: ${cpuOverhead.toFixed(3)} ms/turn); ` +
        `whole turn ${(run.ms / turns).toFixed(3)} ms; bare Runner with the whole history, same calls, ` +
        `separately: ${baseline.toFixed(0)} ms (${(baseline / turns).toFixed(3)} ms/turn); store writes per turn: ${run.writes}`,
    );
  }
  if (overheads.length > 1) {
    const growth = overheads.at(-1)! / overheads[0]!;
    const medianGrowth = medians.at(-1)! / medians[0]!;
    console.log(
      `growth ${TURN_COUNTS[0]} -> ${TURN_COUNTS.at(-1)} turns: mean ${growth.toFixed(2)}x, median ` +
        `${medianGrowth.toFixed(2)}x (target <= 1.5x); overhead at ${TURN_COUNTS.at(-1)}: mean ` +
        `${overheads.at(-1)!.toFixed(3)}, median ${medians.at(-1)!.toFixed(3)} ms/turn (target <= 1 ms); ` +
        `CPU growth ${(cpuOverheads.at(-1)! / cpuOverheads[0]!).toFixed(2)}x`,
    );
    // Within the longest run: the same turns' cost early and late (a flat cost per turn is ~1x).
    const tenth = Math.max(1, Math.floor(lastGaps.length / 10));
    const early = median(lastGaps.slice(1, tenth + 1));
    const late = median(lastGaps.slice(-tenth));
    console.log(
      `within the ${TURN_COUNTS.at(-1)}-turn run: median per-turn overhead of the first tenth ` +
        `${early.toFixed(3)} ms, of the last tenth ${late.toFixed(3)} ms (${(late / early).toFixed(2)}x)`,
    );
    const gc = lastGc!;
    console.log(
      `garbage collection per turn, first -> last tenth: between Runner calls ${gc.gapEarly.toFixed(3)} -> ` +
        `${gc.gapLate.toFixed(3)} ms, inside Runner calls ${gc.runnerEarly.toFixed(3)} -> ${gc.runnerLate.toFixed(3)} ms ` +
        '(a pause is paid wherever it falls, whoever made the garbage)',
    );
    console.log(
      `load average (1 min) ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs (the mean includes ` +
        'time the OS gave to other processes between turns; the median is the typical turn)',
    );
  }
}

/**
 * The scheduler alone: the same ensemble with Runner.run replaced by a constant reply (no SDK
 * work, so no SDK garbage either). Everything the run does per turn is left: planning, the
 * agent's input from its sub-thread, the store writes. Flat figures here and a growing gap
 * above point at the SDK's own cost (its garbage collection grows with the conversation).
 */
async function schedulerAlone(): Promise<void> {
  const timed = Runner.prototype.run;
  Runner.prototype.run = async function stubbedRun(_agent: unknown, input: unknown) {
    const count = Array.isArray(input) ? input.length : 1;
    const now = performance.now();
    marks.push({ start: now, end: now });
    return {
      finalOutput: '{"ok": true}',
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: '{"ok": true}' }],
        },
      ],
      runContext: { usage: { requests: 1, inputTokens: count, outputTokens: 1, totalTokens: 1 } },
    };
  } as unknown as typeof Runner.prototype.run;
  try {
    await ensembleTurns(20); // warm-up
    const perTurn: number[] = [];
    for (const turns of TURN_COUNTS) {
      const run = await ensembleTurns(turns);
      perTurn.push(run.cpuMs / turns);
      console.log(
        `scheduler alone (Runner stubbed), ${turns} turns: ${(run.ms / turns).toFixed(3)} ms/turn wall, ` +
          `${median(run.gaps).toFixed(3)} ms/turn median, CPU ${(run.cpuMs / turns).toFixed(3)} ms/turn`,
      );
    }
    if (perTurn.length > 1)
      console.log(
        `scheduler alone: CPU growth ${TURN_COUNTS[0]} -> ${TURN_COUNTS.at(-1)} turns ` +
          `${(perTurn.at(-1)! / perTurn[0]!).toFixed(2)}x`,
      );
  } finally {
    Runner.prototype.run = timed;
  }
}

/** CPU milliseconds of a process from /proc: its own, and its reaped children's. */
function procCpu(pid: number | undefined): { self: number; children: number } {
  if (pid === undefined) return { self: 0, children: 0 };
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const tick = (at: number) => (Number(fields[at - 3]) * 1000) / 100;
  return { self: tick(14) + tick(15), children: tick(16) + tick(17) };
}

async function scriptChain(): Promise<void> {
  const echo = path.join(dir, 'chain.sh');
  writeFileSync(echo, `#!/bin/sh\ncat > /dev/null\necho '{"success":true,"data":{"ok":true}}'\n`);
  chmodSync(echo, 0o755);
  const count = 40;
  const agents = Array.from(
    { length: count },
    (_, i) => `  - { name: c${i}, script: ./chain.sh${i ? `, depends_on: [c${i - 1}]` : ''} }`,
  ).join('\n');
  const chain = parseEnsemble(`name: chain\nagents:\n${agents}\n`, { baseDir: dir });
  const samples: Record<string, { own: number[]; all: number[]; wall: number[] }> = {
    helper: { own: [], all: [], wall: [] },
    direct: { own: [], all: [], wall: [] },
  };
  for (const on of [true, false]) {
    useSpawnHelper(on);
    await runEnsemble(chain); // warm-up
  }
  for (let round = 0; round < 6; round++) {
    for (const name of round % 2 ? ['direct', 'helper'] : ['helper', 'direct']) {
      useSpawnHelper(name === 'helper');
      if (name === 'helper')
        await runEnsemble(
          parseEnsemble('name: w\nagents:\n  - { name: w, script: ./chain.sh }\n', {
            baseDir: dir,
          }),
        );
      const helper = spawnHelperPid();
      const cpu = process.cpuUsage();
      const self = procCpu(process.pid);
      const helperBefore = procCpu(helper);
      const started = performance.now();
      await runEnsemble(chain);
      const wall = performance.now() - started;
      const own = cpuMs(cpu);
      const helperAfter = procCpu(helper);
      const selfAfter = procCpu(process.pid);
      const helperOwn = helperAfter.self - helperBefore.self;
      const scripts =
        selfAfter.children - self.children + helperAfter.children - helperBefore.children;
      samples[name]!.own.push((own + helperOwn) / count);
      samples[name]!.all.push((own + helperOwn + scripts) / count);
      samples[name]!.wall.push(wall / count);
    }
  }
  useSpawnHelper(true);
  for (const [name, s] of Object.entries(samples))
    console.log(
      `script chain (${count} agents), ${name}: CPU per agent ${median(s.own).toFixed(1)} ms ` +
        `(this process + helper), ${median(s.all).toFixed(1)} ms with the scripts' own; ` +
        `wall ${median(s.wall).toFixed(1)} ms per agent (median of 6 rounds)`,
    );
  console.log(
    `script chain: helper/direct CPU per agent ${(median(samples.helper!.own) / median(samples.direct!.own)).toFixed(2)}, ` +
      `wall ${(median(samples.helper!.wall) / median(samples.direct!.wall)).toFixed(2)}`,
  );
}

async function parallelRatio(): Promise<void> {
  for (const on of [true, false, true, false]) {
    useSpawnHelper(on);
    await parallelOnce(on ? 'helper' : 'direct');
  }
  useSpawnHelper(true);
}

async function parallelOnce(label: string): Promise<void> {
  const sleeper = path.join(dir, 'sleep.js');
  writeFileSync(
    sleeper,
    `#!/usr/bin/env node\nprocess.stdin.resume();\nprocess.stdin.on('end', () => setTimeout(() => process.stdout.write('{"success":true,"data":{}}'), 200));\n`,
  );
  chmodSync(sleeper, 0o755);
  const agents = Array.from(
    { length: 8 },
    (_, i) => `  - { name: s${i}, script: ./sleep.js }`,
  ).join('\n');
  const parallel = parseEnsemble(`name: parallel\nagents:\n${agents}\n`, { baseDir: dir });
  await runEnsemble(parallel); // warm-up
  const started = performance.now();
  const result = await runEnsemble(parallel, { concurrency: 8 });
  const wall = (performance.now() - started) / 1000;
  const longest = Math.max(...result.conversation_history.map((turn) => turn.execution_time));
  console.log(
    `parallel (${label}): 8 script agents x 200 ms: wall ${wall.toFixed(3)} s, longest agent ${longest.toFixed(3)} s, ` +
      `ratio ${(wall / longest).toFixed(2)} (target <= 1.2)`,
  );
}

function medianMs(run: () => void, times = 3): number {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[Math.floor(times / 2)]!;
}

function startup(): void {
  const echo = path.join(dir, 'echo.js');
  writeFileSync(
    echo,
    `#!/usr/bin/env node\nprocess.stdin.resume();\nprocess.stdin.on('end', () => process.stdout.write('{"success":true,"data":{"ok":true}}'));\n`,
  );
  chmodSync(echo, 0o755);
  const file = path.join(dir, 'one.yaml');
  writeFileSync(file, 'name: one\nagents:\n  - { name: echo, script: ./echo.js }\n');
  const cli = path.join(root, 'bin', 'colloquy.js');
  const options = { cwd: dir, stdio: 'ignore' as const };
  const node = medianMs(() => execFileSync(process.execPath, ['-e', '0'], options));
  const invoke = medianMs(() => execFileSync(process.execPath, [cli, 'invoke', file], options));
  console.log(
    `colloquy invoke (one script agent): ${invoke.toFixed(0)} ms; node -e 0: ${node.toFixed(0)} ms; ` +
      `start-up over bare node ${(invoke - node).toFixed(0)} ms (median of 3)`,
  );
}

const partsArg = process.argv.indexOf('--parts');
const parts = partsArg > 0 ? process.argv[partsArg + 1]!.split(',') : undefined;
const wanted = (part: string) => !parts || parts.includes(part);
try {
  if (wanted('turns')) await perTurnOverhead();
  if (wanted('scheduler')) await schedulerAlone();
  if (wanted('chain')) await scriptChain();
  if (wanted('parallel')) await parallelRatio();
  if (wanted('startup')) startup();
  console.log(`machine load (1 min): ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
