/**
 * Disk-full fault harness: a small tmpfs (root only) that a store fills with 20 KB appends until
 * one fails. Checks that no acknowledged item is lost, the failing append rejects, reads work, and
 * appends work again once space is freed.
 * @module
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { ThreadItem } from '../../src/stores/item.js';
import type { ThreadStore } from '../../src/stores/types.js';

/** A mounted tmpfs, or why there is none. */
export type SmallDisk = { dir: string; unmount: () => void } | { skip: string };

/** Mounts a tmpfs of `sizeMb` MiB in a temp dir; `{ skip }` when not root or mount fails. */
export function mountSmallDisk(sizeMb = 4): SmallDisk {
  if (process.platform !== 'linux' || process.getuid?.() !== 0)
    return { skip: 'needs root on Linux to mount a tmpfs (run the tests as root to include it)' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], {
      stdio: 'pipe',
    });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { skip: `could not mount a tmpfs: ${String((error as Error).message).split('\n')[0]}` };
  }
  return {
    dir,
    unmount: () => {
      execFileSync('umount', [dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Figures of one disk-full run, for docs/reliability.md. */
export interface DiskFullFigures {
  acknowledged: number;
  afterFree: number;
}

const item = (n: number): ThreadItem => ({
  id: `i${n}`,
  item: { role: 'user', content: `${n}:`.padEnd(20 * 1024, 'x') },
});

/**
 * Fills the disk through `open()`'s store, then frees `ballast` and appends again. `open` is
 * called again after the fault to check what a fresh process would read.
 */
export async function fillUntilFull(
  dir: string,
  open: () => ThreadStore,
): Promise<DiskFullFigures> {
  const ballast = path.join(dir, 'ballast');
  fs.writeFileSync(ballast, Buffer.alloc(512 * 1024, 1));
  const store = open();
  const acked: string[] = [];
  let failure: unknown;
  for (let n = 0; n < 1000 && failure === undefined; n++) {
    try {
      await store.append('t', [item(n)], { expectedVersion: acked.length });
      acked.push(`i${n}`);
    } catch (error) {
      failure = error;
    }
  }
  expect(failure, 'the disk never filled').toBeDefined();
  expect(failure).toMatchObject({ code: 'STORE_ERROR' });
  expect(String((failure as Error).message)).toMatch(/ENOSPC|full|disk|SQLITE_FULL/i);
  // Every acknowledged item reads back, whole and in order, and nothing else.
  const afterFault = await store.readItems('t');
  expect(afterFault.map((i) => i.id)).toEqual(acked);
  expect((await store.getThread('t'))?.version).toBe(acked.length);
  // Still full: another append is refused, never acknowledged.
  await expect(
    store.append('t', [item(10_000)], { expectedVersion: acked.length }),
  ).rejects.toMatchObject({ code: 'STORE_ERROR' });
  fs.rmSync(ballast);
  let version = acked.length;
  for (let n = 0; n < 5; n++) {
    version = await store.append('t', [item(20_000 + n)], { expectedVersion: version });
    acked.push(`i${20_000 + n}`);
  }
  expect((await store.readItems('t')).map((i) => i.id)).toEqual(acked);
  await store.close();
  const fresh = open();
  expect((await fresh.readItems('t')).map((i) => i.id)).toEqual(acked);
  await fresh.close();
  return { acknowledged: acked.length - 5, afterFree: 5 };
}
