/**
 * Agency delegation overhead: the round trip user → A → send_message → B → A (three model calls)
 * through an Agency, against the SDK's own nesting on the same scripted models in the same run:
 *   - asTool:    A with `B.asTool()` calling it once;
 *   - plainTool: A with a FunctionTool whose execute calls `Runner.run(B)` (the pattern's floor).
 * Rounds interleave the variants so that machine noise hits all of them alike; the ratios compare
 * medians of per-round means.  Run: npx tsx bench/agency-overhead.ts [--rounds 15] [--per-round 200]
 */
import { Agent as SdkAgent, Runner, tool } from '@openai/agents-core';
import type { ModelRequest } from '@openai/agents-core';
import { z } from 'zod';
import {
  Agency,
  Agent,
  MemoryStore,
  ScriptedModel,
  SqliteStore,
  ThreadManager,
  toolOutputsSinceUser,
} from '../src/index.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}
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

// Variant 1: our Agency, threads in memory (the delegation itself), and on SQLite (with persistence).
const agencyB = new Agent({
  name: 'B',
  description: 'answers',
  instructions: 'Answer.',
  model: new ScriptedModel(answer),
});
const agencyA = new Agent({
  name: 'A',
  instructions: 'Delegate to B.',
  model: new ScriptedModel(
    caller('send_message', { recipient: 'B', message: 'hi', additionalInstructions: null }),
  ),
});
const flows: Array<[Agent, Agent]> = [[agencyA, agencyB]];
// A fresh memory store per round: every call starts a new chat, and a store that kept them all
// would measure the garbage collector walking a growing heap, not delegation.
let agency = memoryAgency();
function memoryAgency(): Agency {
  return new Agency({
    entryPoints: [agencyA],
    communicationFlows: flows,
    runner,
    threads: new ThreadManager({ store: new MemoryStore() }),
  });
}
const dbPath = join(mkdtempSync(join(tmpdir(), 'colloquy-bench-')), 'bench.db');
const agencyOnSqlite = new Agency({
  entryPoints: [agencyA],
  communicationFlows: flows,
  runner,
  threads: new ThreadManager({ store: new SqliteStore({ path: dbPath }) }),
});

// Variant 2: the SDK's agent-as-tool.
const toolB = new SdkAgent({
  name: 'B',
  instructions: 'Answer.',
  model: new ScriptedModel(answer),
});
const asToolA = new SdkAgent({
  name: 'A',
  instructions: 'Delegate to B.',
  model: new ScriptedModel(caller('ask_b', { input: 'hi' })),
  tools: [toolB.asTool({ toolName: 'ask_b', toolDescription: 'Ask B.' })],
});

// Variant 3: a plain FunctionTool running B with Runner.run.
const plainB = new SdkAgent({
  name: 'B',
  instructions: 'Answer.',
  model: new ScriptedModel(answer),
});
const plainA = new SdkAgent({
  name: 'A',
  instructions: 'Delegate to B.',
  model: new ScriptedModel(caller('ask_b', { message: 'hi' })),
  tools: [
    tool({
      name: 'ask_b',
      description: 'Ask B.',
      parameters: z.object({ message: z.string() }),
      execute: async ({ message }) => String((await runner.run(plainB, message)).finalOutput),
    }),
  ],
});

// Every call starts a new chat, as the SDK variants do (an agency continues its default chat).
let chats = 0;
const newChat = () => ({ chatId: `bench_${++chats}` });
const variants: Record<string, () => Promise<unknown>> = {
  agency: async () => {
    const result = await agency.getResponse('hi', newChat());
    if (result.usage.requests !== 3)
      throw new Error(`agency made ${result.usage.requests} model calls, expected 3`);
  },
  agencySqlite: async () => agencyOnSqlite.getResponse('hi', newChat()),
  asTool: async () => runner.run(asToolA, 'hi'),
  plainTool: async () => runner.run(plainA, 'hi'),
};

async function timeRound(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < perRound; i++) await run();
  return Number(process.hrtime.bigint() - start) / 1e6 / perRound;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

for (const run of Object.values(variants)) for (let i = 0; i < 100; i++) await run(); // warm-up
const samples: Record<string, number[]> = Object.fromEntries(
  Object.keys(variants).map((name) => [name, []]),
);
for (let round = 0; round < rounds; round++) {
  const order = Object.keys(variants);
  if (round % 2) order.reverse();
  agency = memoryAgency();
  for (const name of order) samples[name]!.push(await timeRound(variants[name]!));
}

const ms = Object.fromEntries(
  Object.entries(samples).map(([name, values]) => [name, median(values)]),
);
console.log(
  `agency overhead: ${rounds} rounds × ${perRound} round trips (user → A → B → A, 3 model calls)`,
);
for (const [name, value] of Object.entries(ms))
  console.log(`  ${name.padEnd(10)} ${value.toFixed(3)} ms per round trip`);
console.log(`ratio agency/asTool: ${(ms.agency! / ms.asTool!).toFixed(2)}`);
console.log(`ratio agency/plainTool: ${(ms.agency! / ms.plainTool!).toFixed(2)}`);
console.log(
  `ratio agency on SQLite/asTool: ${(ms.agencySqlite! / ms.asTool!).toFixed(2)} (2 threads saved in one transaction, plus lease and trace, per round trip)`,
);
