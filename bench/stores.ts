/**
 * Thread-store benchmark: `npx tsx bench/stores.ts`. Measures append throughput and flatness,
 * SQLite's append cost against a bare better-sqlite3 INSERT of the same bytes, read and fork
 * times, and the disk size of a 1,000-turn chat. Redis/Postgres run when COLLOQUY_TEST_REDIS_URL /
 * COLLOQUY_TEST_POSTGRES_URL are set and their store files exist.
 *
 * `--load` runs only the SQLite full-load ratio: `readItems` of a 10,000-item thread against a bare
 * `SELECT body … ORDER BY` + `JSON.parse` of the same 10,000 item JSONs, interleaved rounds, CPU
 * and wall medians (both sides are checked to return the same items).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { JsonFileStore } from '../src/stores/jsonFile.js';
import { MemoryStore } from '../src/stores/memory.js';
import { SqliteStore } from '../src/stores/sqlite.js';
import type { ThreadStore } from '../src/stores/types.js';
import type { ThreadItem } from '../src/stores/item.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-bench-'));
const run = Date.now().toString(36);
let seq = 0;
/** A ~500-byte item (JSON length 500). */
function item(): ThreadItem {
  const id = `i${seq++}`;
  const base = JSON.stringify({ id, item: { role: 'user', content: '' } }).length;
  return { id, item: { role: 'user', content: 'x'.repeat(500 - base) } };
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number, d = 3): string => (n >= 100 ? n.toFixed(0) : n.toPrecision(d));

interface Target {
  name: string;
  make: () => Promise<ThreadStore>;
  /** Appends timed for throughput, and thread sizes exercised. */
  appends: number;
  sizes: number[];
}

const targets: Target[] = [
  {
    name: 'memory',
    make: async () => new MemoryStore(),
    appends: 20_000,
    sizes: [100, 10_000, 100_000],
  },
  {
    name: 'sqlite',
    make: async () => new SqliteStore({ path: path.join(tmp, `bench-${seq++}.db`) }),
    appends: 10_000,
    sizes: [100, 10_000, 100_000],
  },
  {
    name: 'jsonfile',
    make: async () => new JsonFileStore({ dir: path.join(tmp, `json-${seq++}`) }),
    appends: 300,
    sizes: [100, 10_000, 100_000],
  },
];
async function optional(
  name: string,
  env: string,
  file: string,
  make: (url: string, mod: Record<string, unknown>) => ThreadStore,
): Promise<void> {
  const url = process.env[env];
  if (!url) return;
  if (!fs.existsSync(path.join(import.meta.dirname, '..', 'src', 'stores', file))) {
    console.log(`${name}: skipped, ${env} is set but src/stores/${file} does not exist yet`);
    return;
  }
  const mod = (await import(`../src/stores/${file.replace(/\.ts$/, '.js')}`)) as Record<
    string,
    unknown
  >;
  targets.push({
    name,
    make: async () => make(url, mod),
    appends: 2_000,
    sizes: [100, 10_000, 100_000],
  });
}
type Ctor = new (o: object) => ThreadStore;
await optional(
  'redis',
  'COLLOQUY_TEST_REDIS_URL',
  'redis.ts',
  (url, m) => new (m.RedisStore as Ctor)({ url }),
);
await optional(
  'postgres',
  'COLLOQUY_TEST_POSTGRES_URL',
  'postgres.ts',
  (cs, m) => new (m.PostgresStore as Ctor)({ connectionString: cs }),
);

/** Appends `n` single items one by one; returns ms per append. */
async function timeAppends(store: ThreadStore, threadId: string, n: number): Promise<number> {
  let version = (await store.getThread(threadId))?.version ?? 0;
  const items = Array.from({ length: n }, item);
  const start = performance.now();
  for (const i of items) version = await store.append(threadId, [i], { expectedVersion: version });
  return (performance.now() - start) / n;
}

async function fill(store: ThreadStore, threadId: string, n: number): Promise<void> {
  let version = (await store.getThread(threadId))?.version ?? 0;
  for (let done = 0; done < n; done += 5_000) {
    const batch = Array.from({ length: Math.min(5_000, n - done) }, item);
    version = await store.append(threadId, batch, { expectedVersion: version });
  }
}

async function timed(fn: () => Promise<unknown>, reps: number): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** CPU (user + system) and wall ms of one synchronous or awaited call. */
async function cpuAndWall(fn: () => unknown): Promise<{ cpu: number; wall: number }> {
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  await fn();
  const d = process.cpuUsage(cpu0);
  return { cpu: (d.user + d.system) / 1000, wall: performance.now() - wall0 };
}

/**
 * SqliteStore full load of a 10,000-item thread / bare better-sqlite3 (same pragmas, same item
 * JSON, one column plucked, JSON.parse each), interleaved rounds; medians of CPU and wall.
 */
async function sqliteLoadRatio(): Promise<{
  cpu: number;
  wall: number;
  storeMs: number;
  bareMs: number;
}> {
  const n = 10_000;
  const store = new SqliteStore({ path: path.join(tmp, 'load-store.db') });
  await fill(store, 'load', n);
  const stored = await store.readItems('load');
  const bareDb = new Database(path.join(tmp, 'load-bare.db'));
  bareDb.pragma('journal_mode = WAL');
  bareDb.pragma('synchronous = NORMAL');
  bareDb.exec('CREATE TABLE bare (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = bareDb.prepare('INSERT INTO bare (body) VALUES (?)');
  bareDb.transaction(() => stored.forEach((i) => insert.run(JSON.stringify(i))))();
  const select = bareDb.prepare<[], string>('SELECT body FROM bare ORDER BY id').pluck();
  const bareLoad = (): ThreadItem[] => select.all().map((b) => JSON.parse(b) as ThreadItem);
  if (JSON.stringify(bareLoad()) !== JSON.stringify(stored) || stored.length !== n)
    throw new Error('sqliteLoadRatio: the two sides do not hold the same items');
  const s: { cpu: number; wall: number }[] = [];
  const b: { cpu: number; wall: number }[] = [];
  for (let round = 0; round < 31; round++) {
    s.push(await cpuAndWall(() => store.readItems('load')));
    b.push(await cpuAndWall(bareLoad));
  }
  await store.close();
  bareDb.close();
  const m = (xs: { cpu: number; wall: number }[], k: 'cpu' | 'wall'): number =>
    median(xs.map((x) => x[k]));
  return {
    cpu: m(s, 'cpu') / m(b, 'cpu'),
    wall: m(s, 'wall') / m(b, 'wall'),
    storeMs: m(s, 'wall'),
    bareMs: m(b, 'wall'),
  };
}

function printLoadRatio(r: Awaited<ReturnType<typeof sqliteLoadRatio>>): void {
  console.log(
    `sqlite full load of 10,000 items: ${fmt(r.storeMs)} ms, bare SELECT + JSON.parse: ${fmt(r.bareMs)} ms; ratio CPU ${r.cpu.toFixed(2)}, wall ${r.wall.toFixed(2)}`,
  );
}

if (process.argv.includes('--load')) {
  printLoadRatio(await sqliteLoadRatio());
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(0);
}

const rows: Record<string, string | number>[] = [];
const summary: Record<string, number> = {};
for (const target of targets) {
  const store = await target.make();
  const t = (s: string): string => `${run}-${target.name}-${s}`;
  const row: Record<string, string | number> = { store: target.name };
  const perAppend = await timeAppends(store, t('tput'), target.appends);
  row['append/s'] = Math.round(1000 / perAppend);
  // Flatness: 10-item and 10,000-item threads created before a later thread, so both insert
  // mid-keyspace (as with many live chats); alternate rounds, medians of the rounds.
  const flatN = Math.min(100, target.appends);
  for (let round = 0; round < 5; round++) await fill(store, t(`flat-short-${round}`), 10);
  await fill(store, t('flat-long'), 10_000);
  await fill(store, t('flat-after'), 1);
  const short: number[] = [];
  const long: number[] = [];
  for (let round = 0; round < 5; round++) {
    short.push(await timeAppends(store, t(`flat-short-${round}`), flatN));
    long.push(await timeAppends(store, t('flat-long'), flatN));
  }
  const at10 = median(short);
  const at10k = median(long);
  row['append@10 ms'] = fmt(at10);
  row['append@10k ms'] = fmt(at10k);
  row['flatness 10k/10'] = fmt(at10k / at10);
  for (const size of target.sizes) {
    const id = t(`load-${size}`);
    await fill(store, id, size);
    row[`newest50@${size} ms`] = fmt(await timed(() => store.readItems(id, { newest: 50 }), 9));
    row[`full@${size} ms`] = fmt(await timed(() => store.readItems(id), size >= 100_000 ? 3 : 7));
    if (size === 100 || size === 100_000) {
      let k = 0;
      const forkMs = await timed(() => store.fork(id, `${id}-fork-${k++}`), 9);
      row[`fork@${size} ms`] = fmt(forkMs);
      summary[`${target.name} fork ${size}`] = forkMs;
    }
  }
  rows.push(row);
  await store.close();
  console.error(`done: ${target.name}`);
}

/** SQLite append vs bare INSERT of the same bytes (same pragmas, same item JSON), interleaved rounds. */
async function sqliteRatio(): Promise<{ ratio: number; store: number; bare: number }> {
  const store = new SqliteStore({ path: path.join(tmp, 'ratio-store.db') });
  const bareDb = new Database(path.join(tmp, 'ratio-bare.db'));
  bareDb.pragma('journal_mode = WAL');
  bareDb.pragma('synchronous = NORMAL');
  bareDb.exec('CREATE TABLE bare (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = bareDb.prepare('INSERT INTO bare (body) VALUES (?)');
  const storeTimes: number[] = [];
  const bareTimes: number[] = [];
  for (let round = 0; round < 7; round++) {
    storeTimes.push(await timeAppends(store, 'ratio', 2_000));
    const items = Array.from({ length: 2_000 }, item);
    const start = performance.now();
    for (const i of items) insert.run(JSON.stringify(i));
    bareTimes.push((performance.now() - start) / items.length);
  }
  await store.close();
  bareDb.close();
  return {
    ratio: median(storeTimes) / median(bareTimes),
    store: median(storeTimes),
    bare: median(bareTimes),
  };
}

async function sqliteChatSize(): Promise<number> {
  const file = path.join(tmp, 'chat-1000.db');
  const store = new SqliteStore({ path: file });
  await timeAppends(store, 'chat', 1_000);
  await store.close();
  return ['', '-wal', '-shm'].reduce(
    (sum, ext) => sum + (fs.existsSync(file + ext) ? fs.statSync(file + ext).size : 0),
    0,
  );
}

const ratio = await sqliteRatio();
const size = await sqliteChatSize();
const loadRatio = await sqliteLoadRatio();
console.table(rows);
for (const row of rows.filter((r) => r.store === 'jsonfile' || r.store === 'sqlite')) {
  // Append cost at 10 vs 10,000 items (the JSON-file store is append-only JSON Lines: flat).
  console.log(
    `${row.store} append@10: ${row['append@10 ms']} ms, append@10k: ${row['append@10k ms']} ms, ratio ${row['flatness 10k/10']}`,
  );
}
console.log(
  `sqlite append: ${fmt(ratio.store * 1000)} µs, bare INSERT (JSON.stringify + autocommit INSERT): ${fmt(ratio.bare * 1000)} µs`,
);
console.log(`sqlite append ratio: ${ratio.ratio.toFixed(2)}`);
console.log(`sqlite 1000-turn size: ${size} bytes`);
printLoadRatio(loadRatio);
console.log(`fork 100: ${fmt(summary['sqlite fork 100']!)} ms`);
console.log(`fork 100k: ${fmt(summary['sqlite fork 100000']!)} ms`);
fs.rmSync(tmp, { recursive: true, force: true });
