import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonFileStore } from '../../src/stores/jsonFile.js';
import { encodeFileName } from '../../src/stores/jsonFileIo.js';
import type { Checkpoint } from '../../src/stores/types.js';

let dir: string;
let store: JsonFileStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-jsonfile-cp-'));
  store = new JsonFileStore({ dir, fsync: false });
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const checkpoint = (
  id: string,
  chatId = 'c1',
  createdAt = '2026-01-01T00:00:00.000Z',
): Checkpoint => ({
  checkpointId: id,
  chatId,
  label: null,
  createdAt,
  threads: { [`${chatId}__A__USER`]: 1 },
});

describe('JsonFileStore checkpoints', () => {
  it('writes one file per checkpoint under checkpoints/', async () => {
    await store.putCheckpoint(checkpoint('cp-1'));
    const file = path.join(dir, 'checkpoints', encodeFileName('cp-1'));
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      seq: number;
      checkpoint: Checkpoint;
    };
    expect(saved.checkpoint).toEqual(checkpoint('cp-1'));
    expect(typeof saved.seq).toBe('number');
  });

  it('refuses a second checkpoint with the same id and keeps the first', async () => {
    await store.putCheckpoint(checkpoint('dup'));
    await expect(store.putCheckpoint({ ...checkpoint('dup'), label: 'second' })).rejects.toThrow(
      /dup/,
    );
    expect((await store.getCheckpoint('dup'))!.label).toBeNull();
  });

  it('lists a chat oldest first, ties in insertion order, other chats left out', async () => {
    const same = '2026-01-01T00:00:05.000Z';
    await store.putCheckpoint(checkpoint('late', 'c1', '2026-01-01T00:00:09.000Z'));
    await store.putCheckpoint(checkpoint('tie-1', 'c1', same));
    await store.putCheckpoint(checkpoint('other', 'c2', same));
    await store.putCheckpoint(checkpoint('tie-2', 'c1', same));
    await store.putCheckpoint(checkpoint('early', 'c1', '2026-01-01T00:00:01.000Z'));
    expect((await store.listCheckpoints('c1')).map((c) => c.checkpointId)).toEqual([
      'early',
      'tie-1',
      'tie-2',
      'late',
    ]);
    expect((await store.listCheckpoints('c2')).map((c) => c.checkpointId)).toEqual(['other']);
    expect(await store.listCheckpoints('c3')).toEqual([]);
  });

  it('keeps insertion order of ties across store instances', async () => {
    const same = '2026-01-01T00:00:05.000Z';
    await store.putCheckpoint(checkpoint('first', 'c1', same));
    const second = new JsonFileStore({ dir, fsync: false });
    await second.putCheckpoint(checkpoint('second', 'c1', same));
    await second.close();
    expect((await store.listCheckpoints('c1')).map((c) => c.checkpointId)).toEqual([
      'first',
      'second',
    ]);
  });

  it('reads none before anything was written (no directory yet)', async () => {
    expect(await store.getCheckpoint('nope')).toBeNull();
    expect(await store.listCheckpoints('c1')).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'checkpoints'))).toBe(false);
  });

  it('names a corrupt checkpoint file in get and list, with the fix', async () => {
    await store.putCheckpoint(checkpoint('good'));
    const bad = path.join(dir, 'checkpoints', encodeFileName('bad'));
    fs.writeFileSync(bad, '{"seq": 1, "checkpoint": ');
    const message = `JsonFileStore: "${bad}" is not valid JSON`;
    await expect(store.getCheckpoint('bad')).rejects.toThrow(message);
    await expect(store.listCheckpoints('c1')).rejects.toMatchObject({
      code: 'SERIALIZATION_ERROR',
      message: expect.stringContaining('Restore or remove the file.'),
    });
    expect((await store.getCheckpoint('good'))!.checkpointId).toBe('good');
  });

  it('refuses a checkpoint with a bad time or id before writing', async () => {
    await expect(
      store.putCheckpoint({ ...checkpoint('bad-time'), createdAt: 'yesterday' }),
    ).rejects.toThrow('putCheckpoint("bad-time"): createdAt "yesterday" is not a date.');
    await expect(store.putCheckpoint(checkpoint('a\u0000b'))).rejects.toThrow(
      /putCheckpoint: the id .* contains U\+0000 \(NUL\)/,
    );
    expect(fs.existsSync(path.join(dir, 'checkpoints', encodeFileName('bad-time')))).toBe(false);
  });

  it('reports a checkpoints path that is a file as a StoreError', async () => {
    const blocked = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-jsonfile-blocked-'));
    fs.writeFileSync(path.join(blocked, 'checkpoints'), 'not a folder');
    const other = new JsonFileStore({ dir: blocked, fsync: false });
    try {
      await expect(other.putCheckpoint(checkpoint('x'))).rejects.toMatchObject({
        code: 'STORE_ERROR',
        message: expect.stringContaining('put checkpoint (nothing was written) failed'),
      });
      await expect(other.listCheckpoints('c1')).rejects.toMatchObject({ code: 'STORE_ERROR' });
    } finally {
      await other.close();
      fs.rmSync(blocked, { recursive: true, force: true });
    }
  });
});
