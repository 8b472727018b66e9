/** Conformance: `putCheckpoint`, `listCheckpoints`, `getCheckpoint`. @module */
import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../stores/types.js';
import { expectCode, type StoreHandle } from './helpers.js';

function checkpoint(
  checkpointId: string,
  chatId: string,
  second: number,
  threads: Record<string, number> = {},
): Checkpoint {
  const createdAt = new Date(Date.UTC(2025, 0, 1, 0, 0, second)).toISOString();
  return {
    checkpointId,
    chatId,
    label: second % 2 ? `label ${second} ✓` : null,
    createdAt,
    threads,
  };
}

/** Checkpoint records: exact round-trip, oldest-first listing per chat, unique ids. */
export function checkpointTests(store: StoreHandle): void {
  describe('checkpoints', () => {
    it('puts and gets a checkpoint exactly', async () => {
      const cp = checkpoint('cp1', 'c1', 1, { main: 3, 'planner/ü': 0 });
      await store().putCheckpoint(cp);
      expect(await store().getCheckpoint('cp1')).toStrictEqual(cp);
      expect(await store().getCheckpoint('nope')).toBeNull();
    });

    it("lists a chat's checkpoints oldest first", async () => {
      await store().putCheckpoint(checkpoint('z', 'c1', 1, { main: 1 }));
      await store().putCheckpoint(checkpoint('other', 'c2', 2));
      await store().putCheckpoint(checkpoint('a', 'c1', 3, { main: 2 }));
      await store().putCheckpoint(checkpoint('m', 'c1', 5, { main: 4 }));
      const listed = await store().listCheckpoints('c1');
      expect(listed.map((c) => c.checkpointId)).toEqual(['z', 'a', 'm']);
      expect(listed[1]).toStrictEqual(checkpoint('a', 'c1', 3, { main: 2 }));
      expect(await store().listCheckpoints('empty')).toEqual([]);
    });

    it('keeps insertion order for checkpoints with the same createdAt', async () => {
      for (const id of ['q', 'b', 'x']) await store().putCheckpoint(checkpoint(id, 'c1', 4));
      expect((await store().listCheckpoints('c1')).map((c) => c.checkpointId)).toEqual([
        'q',
        'b',
        'x',
      ]);
    });

    it('rejects a checkpointId that already exists, keeping the first', async () => {
      await store().putCheckpoint(checkpoint('cp1', 'c1', 1, { main: 1 }));
      await expectCode(
        store().putCheckpoint(checkpoint('cp1', 'c1', 2, { main: 9 })),
        'CONFIG_INVALID',
      );
      expect((await store().getCheckpoint('cp1'))?.threads).toEqual({ main: 1 });
    });
  });
}
