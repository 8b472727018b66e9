/**
 * Kill/restart fault harness for networked stores: one writer appends items one by one while the
 * server is SIGKILLed twice and restarted. Failed appends must reject (never hang, never be
 * acknowledged); afterwards every acknowledged item is there, once, in order.
 * @module
 */
import { expect } from 'vitest';
import { ConflictError, StoreError } from '../../src/errors.js';
import type { ThreadItem } from '../../src/stores/item.js';
import type { ThreadStore } from '../../src/stores/types.js';
import type { OwnServer } from './serverProcess.js';

const item = (n: number): ThreadItem => ({
  id: `i${n}`,
  item: { role: 'user', content: `item ${n}` },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Figures of one run, for docs/reliability.md. */
export interface KillFigures {
  acknowledged: number;
  kills: number;
  rejected: number;
}

/** Appends `total` items through `kills` SIGKILL + restart cycles of `server`. */
export async function writeThroughKills(
  server: OwnServer,
  store: ThreadStore,
  total = 60,
  kills = 2,
): Promise<KillFigures> {
  const acked: string[] = [];
  let rejected = 0;
  let killed = 0;
  let restarting: Promise<void> | undefined;
  let n = 0;
  const killAt = Array.from({ length: kills }, (_, k) =>
    Math.floor(((k + 1) * total) / (kills + 1)),
  );
  const deadline = Date.now() + 90_000;
  while (acked.length < total) {
    if (Date.now() > deadline) throw new Error(`stuck at ${acked.length}/${total} acknowledged`);
    if (killed < kills && acked.length >= killAt[killed]!) {
      killed += 1;
      await server.kill();
      // Restart a little later, while the writer keeps trying.
      restarting = sleep(400).then(() => server.restart());
    }
    try {
      const version = await store.append('t', [item(n)], { expectedVersion: acked.length });
      expect(version).toBe(acked.length + 1);
      acked.push(`i${n}`);
      n += 1;
    } catch (error) {
      rejected += 1;
      expect(error instanceof StoreError || error instanceof ConflictError, String(error)).toBe(
        true,
      );
      // The append may have landed before the connection broke: look, once the server is back.
      try {
        const items = await store.readItems('t');
        if (items.length === acked.length + 1 && items.at(-1)!.id === `i${n}`) {
          acked.push(`i${n}`);
          n += 1;
        } else expect(items.length).toBe(acked.length);
      } catch (readError) {
        expect(readError).toBeInstanceOf(StoreError);
        await sleep(100);
      }
    }
  }
  await restarting;
  const items = (await store.readItems('t')).map((i) => i.id);
  expect(items).toEqual(acked);
  expect(new Set(items).size).toBe(items.length);
  return { acknowledged: acked.length, kills: killed, rejected };
}
