/**
 * Memory recall: search latency (p50/p99) and recall@10 against an exact search in double
 * precision, at 1k, 10k and 100k memories of one user (the worst case: the whole set is that
 * user's), on SQLite with sqlite-vec (a file in a temp dir) and on the in-process store; then the
 * cost recall adds to an agency call (scripted model, SQLite threads): the mean call time with
 * recall on (embed, search, liveness reads, indexing after) over the same call with memory off.
 * Vectors are random unit vectors of 256 numbers (seeded); the call bench uses the hashed embedder.
 *   Run: npx tsx bench/memory.ts [--queries 200] [--sizes 1000,10000,100000] [--calls 300]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agency } from '../src/agency/agency.js';
import { Agent } from '../src/agency/agent.js';
import { HashedEmbedder } from '../src/memory/hashedEmbedder.js';
import { InMemoryMemory } from '../src/memory/memoryBackend.js';
import { SqliteMemory } from '../src/memory/sqliteMemory.js';
import type { MemoryBackend, MemoryEntry } from '../src/memory/types.js';
import { ScriptedModel } from '../src/models/scriptedModel.js';
import { SqliteStore } from '../src/stores/sqlite.js';
import { ThreadManager } from '../src/threads/threadManager.js';

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
}
const QUERIES = Number(flag('queries', '200'));
const SIZES = flag('sizes', '1000,10000,100000').split(',').map(Number);
const CALLS = Number(flag('calls', '300'));
const DIMS = 256;

let seed = 42;
function random(): number {
  seed = (seed * 1664525 + 1013904223) % 4294967296;
  return seed / 4294967296;
}
function unitVector(): number[] {
  const v = Array.from({ length: DIMS }, () => random() * 2 - 1);
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / norm);
}

function entry(i: number, vector: number[]): MemoryEntry {
  return {
    itemId: `item_${i}`,
    agency: 'bench',
    userId: 'u1',
    chatId: `chat_${Math.floor(i / 20)}`,
    threadId: `chat_${Math.floor(i / 20)}__A__USER`,
    position: i % 20,
    role: i % 2 ? 'assistant' : 'user',
    agent: 'A',
    text: `message ${i}`,
    model: `random-${DIMS}`,
    dimensions: DIMS,
    createdAt: new Date(1_700_000_000_000 + i).toISOString(),
    vector,
  };
}

function exactTop(vectors: number[][], query: number[], k: number): Set<string> {
  const scored = vectors.map((v, i) => {
    let dot = 0;
    for (let d = 0; d < DIMS; d++) dot += v[d]! * query[d]!;
    return { i, dot };
  });
  scored.sort((a, b) => b.dot - a.dot);
  return new Set(scored.slice(0, k).map((s) => `item_${s.i}`));
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function searchBench(
  name: string,
  backend: MemoryBackend,
  size: number,
  vectors: number[][],
) {
  for (let i = 0; i < size; i += 5000) {
    await backend.addEntries(
      vectors.slice(i, i + 5000).map((v, j) => entry(i + j, v)),
      {},
    );
  }
  const times: number[] = [];
  let found = 0;
  for (let q = 0; q < QUERIES; q++) {
    const query = unitVector();
    const start = performance.now();
    const hits = await backend.search(query, { agency: 'bench', userId: 'u1' }, 10);
    times.push(performance.now() - start);
    const exact = exactTop(vectors, query, 10);
    found += hits.filter((h) => exact.has(h.itemId)).length;
  }
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(18)} ${String(size).padStart(7)}  p50 ${pct(times, 50).toFixed(2).padStart(7)} ms  p99 ${pct(times, 99).toFixed(2).padStart(7)} ms  recall@10 ${(found / (QUERIES * 10)).toFixed(3)}`,
  );
}

async function callBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'memory-bench-'));
  const make = (file: string, memory: boolean) => {
    const model = new ScriptedModel(() => 'Noted, thank you.', { name: 'm', repeatLast: true });
    return new Agency({
      name: 'bench',
      entryPoints: [new Agent({ name: 'A', instructions: 'Help.', model })],
      threads: new ThreadManager({ store: new SqliteStore({ path: join(dir, file) }) }),
      tracing: false,
      ...(memory ? { memory: { embedder: new HashedEmbedder(), recall: { topK: 5 } } } : {}),
    });
  };
  const on = make('on.db', true);
  const off = make('off.db', false);
  const topics = ['colour', 'city', 'music', 'food', 'sport', 'book', 'film', 'garden'];
  const say = (i: number) =>
    `My favourite ${topics[i % topics.length]} number ${i} is item ${i * 7}`;
  // Earlier chats of the user: 1,000 messages (500 calls) to recall from.
  for (let i = 0; i < 500; i++)
    await on.getResponse(say(i), { userId: 'u1', chatId: `old_${i % 50}` });
  const time = async (agency: Agency, user: string | undefined): Promise<number> => {
    const start = performance.now();
    await agency.getResponse(say(CALLS), {
      ...(user ? { userId: user } : {}),
      chatId: `new_${Math.random()}`,
    });
    return performance.now() - start;
  };
  for (let i = 0; i < 30; i++) {
    await time(on, 'u1');
    await time(off, undefined);
  }
  const rounds: number[] = [];
  const [onTimes, offTimes]: [number[], number[]] = [[], []];
  for (let r = 0; r < 5; r++) {
    let a = 0;
    let b = 0;
    for (let i = 0; i < CALLS / 5; i++) {
      const x = await time(on, 'u1');
      const y = await time(off, undefined);
      a += x;
      b += y;
      onTimes.push(x);
      offTimes.push(y);
    }
    rounds.push(a / b);
  }
  rounds.sort((x, y) => x - y);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  console.log(
    `call with recall on: ${mean(onTimes).toFixed(2)} ms, memory off: ${mean(offTimes).toFixed(2)} ms, ratio (median of 5 rounds) ${rounds[2]!.toFixed(2)}×`,
  );
  await on.threads.store.close();
  await off.threads.store.close();
}

console.log(
  `memory bench: ${QUERIES} queries of top 10, ${DIMS} dimensions, one user holding every memory`,
);
for (const size of SIZES) {
  const vectors = Array.from({ length: size }, unitVector);
  const dir = mkdtempSync(join(tmpdir(), 'memory-bench-'));
  const sqlite = new SqliteStore({ path: join(dir, 'bench.db') });
  await searchBench('sqlite (sqlite-vec)', new SqliteMemory({ store: sqlite }), size, vectors);
  await sqlite.close();
  await searchBench('memory (scan)', new InMemoryMemory(), size, vectors);
}
if (CALLS > 0) await callBench();
