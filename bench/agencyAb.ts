/**
 * A/B of the agency round trip (user → A → send_message → B → A, memory store, no tracing): an
 * older copy of `src/` against the current one, interleaved in one process, with the SDK's tool
 * + `MemorySession`s, the same agency on a store that keeps nothing, and the SDK tool without
 * sessions as yardsticks (with `--sqlite`, also that SDK code on better-sqlite3 sessions, `toolSqlite`). CPU medians of per-round means. What a change to the agency buys is
 * measured here more steadily than by `agency-overhead.ts` on a shared machine. It also counts the
 * garbage collections each variant's slices ran (young-generation scavenges and full collections
 * per 1,000 round trips): scavenges are proportional to the bytes a round trip allocates.
 *
 *   git archive <commit> src | tar -x -C scratch/base
 *   npx tsx bench/agencyAb.ts [--base scratch/base/src] [--rounds 31] [--per-round 100] [--sqlite]
 */
import { Agent as SdkAgent, MemorySession, Runner, tool } from '@openai/agents-core';
import type { ModelRequest } from '@openai/agents-core';
import { existsSync, mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ScriptedModel } from '../src/models/scriptedModel.js';
import { toolOutputsSinceUser } from '../src/models/requestText.js';
import { BetterSqliteSession, SqliteSessionDb } from './sdkSqliteSession.js';

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
}
const rounds = Number(flag('rounds', '31'));
const perRound = Number(flag('per-round', '100'));
const sqlite = process.argv.includes('--sqlite');
const baseDir = resolve(flag('base', 'scratch/base/src'));
if (!existsSync(join(baseDir, 'agency/agency.ts')))
  throw new Error(`--base ${baseDir}: no agency/agency.ts there; copy an older src/ first.`);
const dir = mkdtempSync(join(tmpdir(), 'colloquy-ab-'));

/** Builds agencies from the sources under `root` (an older copy, or src/). */
async function agenciesFrom(root: string, tag: string) {
  const load = (module: string) => import(pathToFileURL(join(root, `${module}.ts`)).href);
  const { Agency } = await load('agency/agency');
  const { Agent } = await load('agency/agent');
  const { MemoryStore } = await load('stores/memory');
  const { SqliteStore } = await load('stores/sqlite');
  const { ScriptedModel: Scripted } = await load('models/scriptedModel');
  const { ThreadManager } = await load('threads/threadManager');
  /** A store that keeps nothing: what the agency costs without its store. */
  class NullStore extends MemoryStore {
    async getThread() {
      return null;
    }
    async append(_id: string, items: unknown[], options: { expectedVersion: number }) {
      return options.expectedVersion + items.length;
    }
  }
  const B = new Agent({
    name: 'B',
    description: 'answers',
    instructions: 'Answer.',
    model: new Scripted(() => 'B says hello'),
  });
  const A = new Agent({
    name: 'A',
    instructions: 'Delegate to B.',
    model: new Scripted((request: ModelRequest) => {
      const outputs = toolOutputsSinceUser(request);
      return outputs.length === 0
        ? {
            tool: 'send_message',
            args: { recipient: 'B', message: 'hi', additionalInstructions: null },
          }
        : `A got: ${outputs[0]}`;
    }),
  });
  const agency = (store: unknown) =>
    new Agency({
      entryPoints: [A],
      communicationFlows: [[A, B]],
      tracing: false,
      threads: new ThreadManager({ store }),
    });
  return {
    make: () =>
      agency(sqlite ? new SqliteStore({ path: join(dir, `${tag}.db`) }) : new MemoryStore()),
    makeNull: () => agency(new NullStore()),
  };
}

const base = await agenciesFrom(baseDir, 'base');
const current = await agenciesFrom(resolve('src'), 'current');
const runner = new Runner({ tracingDisabled: true });
const sdkB = new SdkAgent({
  name: 'B',
  instructions: 'Answer.',
  model: new ScriptedModel(() => 'B says hello'),
});
type AnySession = MemorySession | BetterSqliteSession;
const askB = (session: (context: unknown) => AnySession | undefined) =>
  tool({
    name: 'ask_b',
    description: 'Ask B.',
    parameters: z.object({ message: z.string() }),
    execute: async ({ message }, runContext) => {
      const b = session(runContext?.context);
      return String((await runner.run(sdkB, message, b ? { session: b } : {})).finalOutput);
    },
  });
const sdkA = (session: (context: unknown) => AnySession | undefined) =>
  new SdkAgent({
    name: 'A',
    instructions: 'Delegate to B.',
    model: new ScriptedModel((request: ModelRequest) => {
      const outputs = toolOutputsSinceUser(request);
      return outputs.length === 0
        ? { tool: 'ask_b', args: { message: 'hi' } }
        : `A got: ${outputs[0]}`;
    }),
    tools: [askB(session)],
  });
const withSessions = sdkA((context) => (context as { b: AnySession }).b);
const withoutSessions = sdkA(() => undefined);

let chats = 0;
// Sessions of the `toolSessionsKept` variant's chats, dropped with the agencies' stores each round.
const kept = new Map<string, { a: MemorySession; b: MemorySession }>();
let agencies = { base: base.make(), current: current.make(), nullStore: current.makeNull() };
const variants: Record<string, () => Promise<unknown>> = {
  base: () => agencies.base.getResponse('hi', { chatId: `c_${++chats}` }),
  current: () => agencies.current.getResponse('hi', { chatId: `c_${++chats}` }),
  nullStore: () => agencies.nullStore.getResponse('hi', { chatId: `c_${++chats}` }),
  toolSessions: () => {
    const sessions = { a: new MemorySession(), b: new MemorySession() };
    return runner.run(withSessions, 'hi', { session: sessions.a, context: sessions });
  },
  // The same, its sessions kept for the round (by chat id), as the agency's store keeps its threads.
  toolSessionsKept: () => {
    const sessions = { a: new MemorySession(), b: new MemorySession() };
    kept.set(`c_${++chats}`, sessions);
    return runner.run(withSessions, 'hi', { session: sessions.a, context: sessions });
  },
  plainTool: () => runner.run(withoutSessions, 'hi'),
};
// On SQLite, the SDK code keeping both conversations in SQLite too (bench/sdkSqliteSession.ts).
if (sqlite) {
  const db = new SqliteSessionDb(join(dir, 'sdk.db'));
  variants.toolSqlite = () => {
    const id = `c_${++chats}`;
    const sessions = {
      a: new BetterSqliteSession(db, `${id}:user:A`),
      b: new BetterSqliteSession(db, `${id}:A:B`),
    };
    return runner.run(withSessions, 'hi', { session: sessions.a, context: sessions });
  };
}
for (const run of Object.values(variants)) for (let i = 0; i < 100; i++) await run();
const samples: Record<string, number[]> = Object.fromEntries(
  Object.keys(variants).map((name) => [name, []]),
);
// Garbage collections during each variant's slices, by kind (the observer runs between slices).
const collections: Record<string, { minor: number; major: number }> = Object.fromEntries(
  Object.keys(variants).map((name) => [name, { minor: 0, major: 0 }]),
);
let slice = '';
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
    const counts = collections[slice];
    if (!counts) continue;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) counts.minor++;
    else counts.major++;
  }
});
gcObserver.observe({ entryTypes: ['gc'] });
for (let round = 0; round < rounds; round++) {
  // A fresh memory store per round (a store keeping every chat would time the GC).
  if (!sqlite)
    agencies = { base: base.make(), current: current.make(), nullStore: current.makeNull() };
  kept.clear();
  const order = Object.keys(variants);
  if (round % 2) order.reverse();
  for (const name of order) {
    slice = name;
    const before = process.cpuUsage();
    for (let i = 0; i < perRound; i++) await variants[name]!();
    const used = process.cpuUsage(before);
    // Let the observer see this slice's collections before the next slice starts.
    await new Promise((settle) => setImmediate(settle));
    samples[name]!.push((used.user + used.system) / 1000 / perRound);
  }
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const cpu = Object.fromEntries(Object.entries(samples).map(([name, v]) => [name, median(v)]));
console.log(
  `${sqlite ? 'SQLite' : 'memory'}, ${rounds} × ${perRound} round trips, CPU ms per round trip: ` +
    Object.entries(cpu)
      .map(([name, ms]) => `${name} ${ms.toFixed(3)}`)
      .join(', '),
);
const ratio = (a: string, b: string) => (cpu[a]! / cpu[b]!).toFixed(3);
const sdk = sqlite ? 'toolSqlite' : 'toolSessions';
console.log(
  `current/base ${ratio('current', 'base')}, base/${sdk} ${ratio('base', sdk)}, ` +
    `current/${sdk} ${ratio('current', sdk)}, nullStore/toolSessions ${ratio('nullStore', 'toolSessions')}`,
);
gcObserver.disconnect();
const per1000 = (count: number) => ((count / (rounds * perRound)) * 1000).toFixed(1);
console.log(
  'garbage collections per 1,000 round trips (scavenges / full): ' +
    Object.entries(collections)
      .map(([name, { minor, major }]) => `${name} ${per1000(minor)} / ${per1000(major)}`)
      .join(', '),
);
console.log(`machine load (1 min): ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
