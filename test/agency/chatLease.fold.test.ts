/**
 * On SQLite an agency call's last write, the save of its threads, also releases the chat lease in
 * the same transaction (one commit, no separate release statement), while another process
 * (another connection to the file) stays kept out until the threads are saved. Calls with writes
 * after the save (automatic checkpoints) keep the lease until they end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelRequest } from '@openai/agents-core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { chatLeaseKey } from '../../src/agency/chatLease.js';
import { toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { deferred, GatedModel } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'colloquy-lease-fold-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** A → send_message → B → A on `store`; B's model waits for `gate` when given. */
function roundTrip(
  store: SqliteStore,
  options: { gate?: () => Promise<void>; tracing?: boolean; autoCheckpoint?: boolean } = {},
) {
  const answer = new ScriptedModel(() => 'B says hello');
  const B = new Agent({
    name: 'B',
    description: 'answers',
    instructions: 'Answer.',
    model: options.gate ? new GatedModel(answer, options.gate) : answer,
  });
  const A = new Agent({
    name: 'A',
    instructions: 'Delegate to B.',
    model: new ScriptedModel((request: ModelRequest) => {
      const outputs = toolOutputsSinceUser(request);
      return outputs.length === 0
        ? {
            tool: 'send_message',
            args: { recipient: 'B', message: 'hi', additionalInstructions: null },
          }
        : `A got: ${outputs[0]}`;
    }),
  });
  return new Agency({
    entryPoints: [A],
    communicationFlows: [[A, B]],
    tracing: options.tracing ?? false,
    autoCheckpoint: options.autoCheckpoint ?? false,
    threads: new ThreadManager({ store }),
  });
}

function newFile(): string {
  return join(dir, `chat-${++files}.db`);
}

describe('the chat lease on SQLite', () => {
  it('is released by the transaction that saves the call threads, with no release statement of its own', async () => {
    const path = newFile();
    const store = new SqliteStore({ path });
    const other = new SqliteStore({ path });
    const release = vi.spyOn(store.leases, 'release');
    try {
      const result = await roundTrip(store).getResponse('hi', { chatId: 'c1' });
      expect(result.finalOutput).toBe('A got: B says hello');
      expect(release).not.toHaveBeenCalled();
      // Released all the same: another connection takes it at once.
      expect(await other.leases.acquire(chatLeaseKey('c1'), 'other', 10_000)).toBe(true);
      expect((await store.readItems('c1__A__USER')).length).toBe(4);
      expect((await store.readItems('c1__A__B')).length).toBe(2);
    } finally {
      await other.close();
      await store.close();
    }
  });

  it('is released with the save in a traced call too, and the trace is saved after it', async () => {
    const store = new SqliteStore({ path: newFile() });
    const release = vi.spyOn(store.leases, 'release');
    try {
      const result = await roundTrip(store, { tracing: true }).getResponse('hi', { chatId: 'c2' });
      expect(result.finalOutput).toBe('A got: B says hello');
      expect(release).not.toHaveBeenCalled();
      expect(await store.leases.acquire(chatLeaseKey('c2'), 'other', 10_000)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('keeps another process out while the call runs, and lets it in only once the threads are saved', async () => {
    const path = newFile();
    const store = new SqliteStore({ path });
    const other = new SqliteStore({ path });
    const inB = deferred();
    const finishB = deferred();
    try {
      const running = roundTrip(store, {
        gate: async () => {
          inB.resolve();
          await finishB.promise;
        },
      }).getResponse('hi', { chatId: 'c3' });
      await inB.promise;
      expect(await other.leases.acquire(chatLeaseKey('c3'), 'other', 10_000)).toBe(false);
      finishB.resolve();
      // Poll from the other connection at every turn of the event loop: the first time it gets
      // the lease, every item of the call is already saved.
      let seen: number[] | undefined;
      while (!seen) {
        if (await other.leases.acquire(chatLeaseKey('c3'), 'other', 10_000)) {
          seen = [
            (await other.readItems('c3__A__USER')).length,
            (await other.readItems('c3__A__B')).length,
          ];
        } else await new Promise((resolve) => setImmediate(resolve));
      }
      expect(seen).toEqual([4, 2]);
      expect((await running).finalOutput).toBe('A got: B says hello');
    } finally {
      finishB.resolve();
      await other.close();
      await store.close();
    }
  });

  it('stays held past the save when the call writes after it (an automatic checkpoint), then is released', async () => {
    const store = new SqliteStore({ path: newFile() });
    const release = vi.spyOn(store.leases, 'release');
    try {
      await roundTrip(store, { autoCheckpoint: true }).getResponse('hi', { chatId: 'c4' });
      expect(release).toHaveBeenCalledTimes(1);
      expect(await store.listCheckpoints('c4')).toHaveLength(1);
      expect(await store.leases.acquire(chatLeaseKey('c4'), 'other', 10_000)).toBe(true);
    } finally {
      await store.close();
    }
  });
});
