import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonFileStore } from '../../src/stores/jsonFile.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { seededRandom } from './fixtures/random.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/crashAppender.ts', import.meta.url));
const KILLS = 24;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-crash-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs the appender until `ready`, lets it append for `ms`, SIGKILLs it; returns its complete ack lines. */
function runAndKill(seed: number, ms: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, dir, String(seed)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (!out.includes('ready\n') && (out + chunk.toString()).includes('ready\n'))
        setTimeout(() => child.kill('SIGKILL'), ms);
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL')
        reject(new Error(`appender exited with code ${code} before the kill: ${err}`));
      else
        resolve(
          out
            .split('\n')
            .slice(0, -1)
            .filter((l) => l.startsWith('ack ')),
        );
    });
  });
}

describe('crash safety (SIGKILL during appends)', () => {
  it(`keeps every acknowledged append, in order, across ${KILLS} kills`, async () => {
    const random = seededRandom(20250101);
    const acked: Record<string, Record<string, string[]>> = { sqlite: {}, jsonfile: {} };
    for (let run = 0; run < KILLS; run++) {
      for (const line of await runAndKill(1000 + run, 10 + Math.floor(random() * 150))) {
        const [, kind, threadId, ids] = line.split(' ');
        ((acked[kind!]![threadId!] ??= []) as string[]).push(...ids!.split(','));
      }
    }
    const stores: Record<string, ThreadStore> = {
      sqlite: new SqliteStore({ path: path.join(dir, 'threads.db') }),
      jsonfile: new JsonFileStore({ dir: path.join(dir, 'json') }),
    };
    let total = 0;
    for (const [kind, threads] of Object.entries(acked)) {
      const store = stores[kind]!;
      for (const [threadId, ids] of Object.entries(threads)) {
        const items = await store.readItems(threadId);
        expect(items.length).toBe((await store.getThread(threadId))?.version);
        // Every item reads back whole; acknowledged ids appear in acknowledgement order.
        for (const i of items)
          expect(i.item).toMatchObject({ role: 'user', content: expect.stringMatching(/^ü?x+$/) });
        const readIds = items.map((i) => i.id);
        expect(new Set(readIds).size).toBe(readIds.length);
        const positions = ids.map((id) => readIds.indexOf(id));
        expect(positions, `${kind}/${threadId}: acknowledged items missing`).not.toContain(-1);
        expect([...positions].sort((a, b) => a - b)).toEqual(positions);
        total += ids.length;
      }
      await store.close();
    }
    expect(total).toBeGreaterThan(KILLS);
  }, 60_000);
});
