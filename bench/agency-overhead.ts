/**
 * Agency delegation overhead: the round trip user → A → send_message → B → A (three model calls)
 * through an Agency, against the SDK's own nesting on the same scripted models in the same run:
 *   - asTool:    A with `B.asTool()` calling it once;
 *   - plainTool: A with a FunctionTool whose execute calls `Runner.run(B)` (the pattern's floor);
 *   - sdkShaped: plainTool made the way an agency calls the SDK (instructions as a function, the
 *     send_message schema, a RunContext, a turn budget, items as input), with no Colloquy code.
 * Like is compared with like: the agency without tracing against the SDK without tracing, and the
 * agency with its default tracing (every span recorded, the trace saved next to the threads)
 * against the SDK's asTool with the same tracing (the SDK's spans, the same recorder and trace
 * store). The SQLite agency (threads and trace saved to a file) is compared with both.
 * Rounds interleave the variants so that machine noise hits all of them alike; the ratios compare
 * medians of per-round means (in parentheses: the ratio of the least disturbed rounds' CPU).
 * Run: npx tsx bench/agency-overhead.ts [--rounds 15] [--per-round 200] [--only a,b] [--built]. `--built` measures the compiled package (`npm run build` first) as users run it:
 * tsx compiles our sources with esbuild's keepNames, which names every closure at run time, a
 * cost the SDK (plain JavaScript) does not pay in this bench.
 */
import { Agent as SdkAgent, MemorySession, RunContext, Runner, tool } from '@openai/agents-core';
import type { ModelRequest, Session } from '@openai/agents-core';
import { BetterSqliteSession, SqliteSessionDb } from './sdkSqliteSession.js';
import { z } from 'zod';
import { existsSync, mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}
const built = process.argv.includes('--built');
if (built && !existsSync(new URL('../dist/index.js', import.meta.url)))
  throw new Error('--built measures dist/: run `npm run build` first.');
// Each name from its own module (not the package index), in src/ or, with --built, in dist/.
const from = (module: string) =>
  import(built ? `../dist/${module}.js` : `../src/${module}.js`) as Promise<unknown>;
const { Agency } = (await from('agency/agency')) as typeof import('../src/agency/agency.js');
const { Agent } = (await from('agency/agent')) as typeof import('../src/agency/agent.js');
const { MemoryStore } = (await from('stores/memory')) as typeof import('../src/stores/memory.js');
const { SqliteStore } = (await from('stores/sqlite')) as typeof import('../src/stores/sqlite.js');
const { ScriptedModel } = (await from(
  'models/scriptedModel',
)) as typeof import('../src/models/scriptedModel.js');
// Models that keep no log of their calls, as a real model keeps none: a ScriptedModel recording
// every request would keep every request's input alive, and the garbage collector would walk a
// heap that grows with the bench (more on the side whose requests refer to more).
const scripted = (step: ConstructorParameters<typeof ScriptedModel>[0]) =>
  new ScriptedModel(step, { recordCalls: false });
const { ThreadManager } = (await from(
  'threads/threadManager',
)) as typeof import('../src/threads/threadManager.js');
const { toolOutputsSinceUser } = (await from(
  'models/requestText',
)) as typeof import('../src/models/requestText.js');
const { traceCall } = (await from(
  'tracing/traceCall',
)) as typeof import('../src/tracing/traceCall.js');
type Agency = InstanceType<typeof Agency>;
const rounds = flag('rounds', 15);
const perRound = flag('per-round', 200);

/** A's script: call `toolName` once, then answer with what it returned. */
function caller(toolName: string, args: Record<string, unknown>) {
  return (request: ModelRequest) => {
    const outputs = toolOutputsSinceUser(request);
    return outputs.length === 0 ? { tool: toolName, args } : `A got: ${outputs[0]}`;
  };
}
const answer = () => 'B says hello';
const runner = new Runner({ tracingDisabled: true });
const tracedRunner = new Runner({ traceIncludeSensitiveData: true });

// Variant 1: our Agency, threads in memory (the delegation itself), and on SQLite (with persistence).
const agencyB = new Agent({
  name: 'B',
  description: 'answers',
  instructions: 'Answer.',
  model: scripted(answer),
});
const agencyA = new Agent({
  name: 'A',
  instructions: 'Delegate to B.',
  model: scripted(
    caller('send_message', { recipient: 'B', message: 'hi', additionalInstructions: null }),
  ),
});
const flows: Array<[typeof agencyA, typeof agencyB]> = [[agencyA, agencyB]];
// A fresh memory store per round: every call starts a new chat, and a store that kept them all
// would measure the garbage collector walking a growing heap, not delegation.
let agency = memoryAgency(false);
let agencyTraced = memoryAgency(true);
function memoryAgency(tracing: boolean): Agency {
  return new Agency({
    entryPoints: [agencyA],
    communicationFlows: flows,
    tracing,
    threads: new ThreadManager({ store: new MemoryStore() }),
  });
}
const dbPath = join(mkdtempSync(join(tmpdir(), 'colloquy-bench-')), 'bench.db');
const agencyOnSqlite = new Agency({
  entryPoints: [agencyA],
  communicationFlows: flows,
  threads: new ThreadManager({ store: new SqliteStore({ path: dbPath }) }),
});
const agencyOnSqliteUntraced = new Agency({
  entryPoints: [agencyA],
  communicationFlows: flows,
  tracing: false,
  threads: new ThreadManager({ store: new SqliteStore({ path: `${dbPath}.untraced` }) }),
});
// The SDK variants' traces go where a memory agency's go: a memory store's trace store.
let traceStore = new MemoryStore();

// Variant 2: the SDK's agent-as-tool.
const toolB = new SdkAgent({
  name: 'B',
  instructions: 'Answer.',
  model: scripted(answer),
});
const asToolA = new SdkAgent({
  name: 'A',
  instructions: 'Delegate to B.',
  model: scripted(caller('ask_b', { input: 'hi' })),
  tools: [toolB.asTool({ toolName: 'ask_b', toolDescription: 'Ask B.' })],
});

// Variant 3: a plain FunctionTool running B with Runner.run.
const plainB = new SdkAgent({
  name: 'B',
  instructions: 'Answer.',
  model: scripted(answer),
});
const plainA = new SdkAgent({
  name: 'A',
  instructions: 'Delegate to B.',
  model: scripted(caller('ask_b', { message: 'hi' })),
  tools: [
    tool({
      name: 'ask_b',
      description: 'Ask B.',
      parameters: z.object({ message: z.string() }),
      execute: async ({ message }) => String((await runner.run(plainB, message)).finalOutput),
    }),
  ],
});

// Variant 4: the SDK calls an agency round trip makes, with no Colloquy code: the agents'
// instructions as a function (shared + own), send_message's strict JSON schema, the shared
// context as a RunContext, a per-agent turn budget and the message as input items. What this
// costs over asTool is the SDK's part of the agency's price, before any thread is kept.
const shapedInstructions = (own: string) => async () => ['Shared.', own].join('\n\n');
const shapedRun = (agent: SdkAgent<any, any>, message: string, context: object) =>
  runner.run(agent, [{ role: 'user', content: message }], {
    context: new RunContext(context),
    maxTurns: 100,
  });
const shapedB = new SdkAgent({
  name: 'B',
  instructions: shapedInstructions('Answer.'),
  model: scripted(answer),
});
const shapedA = new SdkAgent({
  name: 'A',
  instructions: shapedInstructions('Delegate to B.'),
  model: scripted(
    caller('send_message', { recipient: 'B', message: 'hi', additionalInstructions: null }),
  ),
  tools: [
    tool({
      name: 'send_message',
      description: 'Send a message to another agent and wait for its reply.',
      strict: true,
      parameters: {
        type: 'object',
        properties: {
          recipient: { type: 'string', enum: ['B'], description: 'The agent to message.' },
          message: { type: 'string', description: 'What to tell or ask the recipient.' },
          additionalInstructions: { type: ['string', 'null'], description: 'Or null.' },
        },
        required: ['recipient', 'message', 'additionalInstructions'],
        additionalProperties: false,
      },
      errorFunction: null,
      execute: async (input, runContext) => {
        const args = (typeof input === 'string' ? JSON.parse(input) : input) as { message: string };
        const context = (runContext as RunContext<object> | undefined)?.context ?? {};
        return String((await shapedRun(shapedB, args.message, context)).finalOutput);
      },
    }),
  ],
});

// Variant 5: the cheapest SDK code that keeps both conversations, like an agency: A runs with a
// session for user↔A, and its tool runs B with a session for A↔B (in memory, or in SQLite with
// the Python SDK's SQLiteSession layout written in bench/sdkSqliteSession.ts).
const sessionB = new SdkAgent({
  name: 'B',
  instructions: 'Answer.',
  model: scripted(answer),
});
interface Sessions {
  a: Session;
  b: Session;
}
const sessionA = new SdkAgent<Sessions>({
  name: 'A',
  instructions: 'Delegate to B.',
  model: scripted(caller('ask_b', { message: 'hi' })),
  tools: [
    tool({
      name: 'ask_b',
      description: 'Ask B.',
      parameters: z.object({ message: z.string() }),
      execute: async ({ message }, runContext) =>
        String(
          (await runner.run(sessionB, message, { session: runContext!.context.b })).finalOutput,
        ),
    }),
  ],
});
const sessionsRun = (sessions: Sessions) =>
  runner.run(sessionA, 'hi', { session: sessions.a, context: sessions });
const sqliteSessions = new SqliteSessionDb(`${dbPath}.sdk`);
let sessionIds = 0;
// The SDK variants keep every chat's sessions for the round, by chat id, as the agency's store
// keeps its threads for the round (each round starts a new agency): both sides hold the same
// conversations in memory, so the garbage collector has the same live data to walk on either side.
let keptSessions = new Map<string, Sessions>();
const kept = (sessions: Sessions): Sessions => {
  keptSessions.set(`chat_${++sessionIds}`, sessions);
  return sessions;
};
const memorySessions = (): Sessions => kept({ a: new MemorySession(), b: new MemorySession() });
const sqliteSessionPair = (): Sessions => {
  const id = `chat_${sessionIds + 1}`;
  return kept({
    a: new BetterSqliteSession(sqliteSessions, `${id}:user:A`),
    b: new BetterSqliteSession(sqliteSessions, `${id}:A:B`),
  });
};

// Variant 6: asTool with sessions: per chat, one clone of A whose asTool(B) keeps B's session.
const asToolWithSessions = (sessions: Sessions) =>
  runner.run(
    asToolA.clone({
      tools: [
        toolB.asTool({
          toolName: 'ask_b',
          toolDescription: 'Ask B.',
          runOptions: { session: sessions.b },
        }),
      ],
    }),
    'hi',
    { session: sessions.a },
  );

// Every call starts a new chat, as the SDK variants do (an agency continues its default chat).
let chats = 0;
const newChat = () => ({ chatId: `bench_${++chats}` });
const variants: Record<string, () => Promise<unknown>> = {
  agency: async () => {
    const result = await agency.getResponse('hi', newChat());
    if (result.usage.requests !== 3)
      throw new Error(`agency made ${result.usage.requests} model calls, expected 3`);
  },
  asTool: async () => runner.run(asToolA, 'hi'),
  plainTool: async () => runner.run(plainA, 'hi'),
  sdkShaped: async () => shapedRun(shapedA, 'hi', {}),
  agencyTraced: async () => agencyTraced.getResponse('hi', newChat()),
  asToolTraced: async () =>
    traceCall({ name: 'asTool', store: traceStore }, () => tracedRunner.run(asToolA, 'hi')),
  agencySqlite: async () => agencyOnSqlite.getResponse('hi', newChat()),
  agencySqlite0: async () => agencyOnSqliteUntraced.getResponse('hi', newChat()),
  toolSessions: async () => sessionsRun(memorySessions()),
  toolSqlite: async () => sessionsRun(sqliteSessionPair()),
  asToolSessions: async () => asToolWithSessions(memorySessions()),
};

// `--only agency,asTool` times only those variants (to profile one: node --cpu-prof).
const only = process.argv.indexOf('--only');
if (only > 0) {
  const keep = new Set(process.argv[only + 1]!.split(','));
  for (const name of Object.keys(variants)) if (!keep.has(name)) delete variants[name];
}

// Both sides must keep the same items: one round trip each, items counted per conversation.
async function agencyCounts(store: InstanceType<typeof MemoryStore | typeof SqliteStore>) {
  const checked = new Agency({
    entryPoints: [agencyA],
    communicationFlows: flows,
    tracing: false,
    threads: new ThreadManager({ store }),
  });
  const { chatId } = newChat();
  await checked.getResponse('hi', { chatId });
  const counts: number[] = [];
  for (const thread of await store.listThreads({ chatId }))
    counts.push((await store.readItems(thread.threadId)).length);
  return counts.sort().join('+');
}
async function sessionCounts(run: (sessions: Sessions) => Promise<unknown>, sessions: Sessions) {
  await run(sessions);
  const counts = [(await sessions.a.getItems()).length, (await sessions.b.getItems()).length];
  return counts.sort().join('+');
}
const stored = {
  agency: await agencyCounts(new MemoryStore()),
  agencySqlite: await agencyCounts(new SqliteStore({ path: `${dbPath}.check` })),
  toolSessions: await sessionCounts(sessionsRun, memorySessions()),
  toolSqlite: await sessionCounts(sessionsRun, sqliteSessionPair()),
  asToolSessions: await sessionCounts(asToolWithSessions, memorySessions()),
};
console.log(`items stored per conversation (user↔A + A↔B): ${JSON.stringify(stored)}`);
if (new Set(Object.values(stored)).size !== 1)
  throw new Error('the variants did not store the same items; the comparison would be unfair.');

/** Wall and CPU (user + system) milliseconds per round trip over one round. */
async function timeRound(run: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const cpuBefore = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < perRound; i++) await run();
  const wall = Number(process.hrtime.bigint() - start) / 1e6 / perRound;
  const used = process.cpuUsage(cpuBefore);
  return { wall, cpu: (used.user + used.system) / 1000 / perRound };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

for (const run of Object.values(variants)) for (let i = 0; i < 100; i++) await run(); // warm-up
const samples: Record<string, Array<{ wall: number; cpu: number }>> = Object.fromEntries(
  Object.keys(variants).map((name) => [name, []]),
);
for (let round = 0; round < rounds; round++) {
  const order = Object.keys(variants);
  if (round % 2) order.reverse();
  agency = memoryAgency(false);
  agencyTraced = memoryAgency(true);
  traceStore = new MemoryStore();
  keptSessions = new Map();
  for (const name of order) samples[name]!.push(await timeRound(variants[name]!));
}

// Wall time is what a caller waits; CPU time is what the work costs, and on a shared machine it
// is the steadier of the two (time spent waiting for a core counts in wall time only).
const of = (clock: 'wall' | 'cpu') =>
  Object.fromEntries(
    Object.entries(samples).map(([name, values]) => [name, median(values.map((v) => v[clock]))]),
  );
const wall = of('wall');
const cpu = of('cpu');
// The least disturbed round of each variant: on a loaded machine the median drifts with the load
// of the moment, the minimum much less.
const cpuMin = Object.fromEntries(
  Object.entries(samples).map(([name, values]) => [name, Math.min(...values.map((v) => v.cpu))]),
);
console.log(
  `agency overhead (${built ? 'dist/, compiled' : 'src/ through tsx'}): ${rounds} rounds × ${perRound} round trips (user → A → B → A, 3 model calls)`,
);
for (const name of Object.keys(variants))
  console.log(
    `  ${name.padEnd(15)} ${wall[name]!.toFixed(3)} ms wall, ${cpu[name]!.toFixed(3)} ms CPU per round trip`,
  );
const ratio = (a: string, b: string) =>
  wall[a] === undefined || wall[b] === undefined
    ? 'not measured'
    : `${(wall[a]! / wall[b]!).toFixed(2)} wall, ${(cpu[a]! / cpu[b]!).toFixed(2)} CPU (min ${(cpuMin[a]! / cpuMin[b]!).toFixed(2)})`;
console.log('like for like (both sides keep both conversations, no tracing):');
console.log(`  agency memory / tool + MemorySessions: ${ratio('agency', 'toolSessions')}`);
console.log(
  `  agency SQLite / tool + better-sqlite3 sessions: ${ratio('agencySqlite0', 'toolSqlite')}`,
);
console.log(
  `  agency SQLite traced (trace saved too) / tool + better-sqlite3 sessions: ${ratio('agencySqlite', 'toolSqlite')}`,
);
console.log(
  `  agency memory / asTool + sessions (clone per chat): ${ratio('agency', 'asToolSessions')}`,
);
console.log('for information:');
console.log(`ratio agency/asTool (no tracing on either side): ${ratio('agency', 'asTool')}`);
console.log(`ratio agency/plainTool (no tracing): ${ratio('agency', 'plainTool')}`);
console.log(
  `ratio sdkShaped/asTool (the SDK calls an agency round trip makes, no Colloquy code): ${ratio('sdkShaped', 'asTool')}`,
);
console.log(
  `ratio agency/asTool, both traced and saved to memory: ${ratio('agencyTraced', 'asToolTraced')}`,
);
console.log(
  `ratio agency on SQLite (threads, lease and trace saved)/asTool traced: ${ratio('agencySqlite', 'asToolTraced')}`,
);
console.log(`ratio agency on SQLite/asTool untraced: ${ratio('agencySqlite', 'asTool')}`);
console.log(`machine load (1 min): ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
