/**
 * Two child processes (`fixtures/chatWorker.ts`) sending to the chat "shared" of one store at the
 * same moment, and the check that their calls did not interleave.
 * @module
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { ThreadStore } from '../../src/stores/types.js';
import { label } from './helpers.js';

const WORKER = fileURLToPath(new URL('./fixtures/chatWorker.ts', import.meta.url));

function worker(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  const ready = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready\n')) resolve();
    }),
  );
  const done = new Promise<string>((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.split('\n')[1]!) as string)
        : reject(new Error(`worker exited ${code}: ${out}`)),
    ),
  );
  return { child, ready, done };
}

/**
 * Starts two workers on the store at `where` (a SQLite path, or a URL with `namespace`), lets them
 * send "one" and "two" at once, and checks on `store` (the same data, opened here) that one call
 * ran first and the other waited for it: answers `#1` and `#2`, and the user thread in order.
 */
export async function expectTwoProcessesSerialized(
  where: string,
  namespace: string | undefined,
  store: ThreadStore,
): Promise<void> {
  const extra = namespace === undefined ? [] : [namespace];
  const one = worker([where, 'one', ...extra]);
  const two = worker([where, 'two', ...extra]);
  await Promise.all([one.ready, two.ready]);
  one.child.stdin.end('go\n');
  two.child.stdin.end('go\n');
  const answers = (await Promise.all([one.done, two.done])).sort((a, b) =>
    a.slice(-1).localeCompare(b.slice(-1)),
  );
  // One call ran first and saw one user message; the other waited and saw both.
  expect(answers.map((a) => a.slice(-2))).toEqual(['#1', '#2']);
  const items = await store.readItems('shared__A__USER');
  const labels = items.map((entry) => label(entry.item));
  const first = answers[0]!.split(' ')[0]!;
  const second = answers[1]!.split(' ')[0]!;
  expect(labels).toEqual([
    `user:${first}`,
    `assistant:${first} #1`,
    `user:${second}`,
    `assistant:${second} #2`,
  ]);
}
