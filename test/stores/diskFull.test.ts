// Disk full (a 4 MiB tmpfs, root only): JSON-file and SQLite stores lose no acknowledged item.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonFileStore } from '../../src/stores/jsonFile.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { fillUntilFull, mountSmallDisk, type SmallDisk } from './diskFull.js';

const probe = mountSmallDisk();
const skip = 'skip' in probe ? probe.skip : undefined;
if ('unmount' in probe) probe.unmount();
if (skip) console.warn(`disk-full tests SKIPPED: ${skip}`);

let disk: SmallDisk | undefined;
afterEach(() => {
  if (disk && 'unmount' in disk) disk.unmount();
  disk = undefined;
});
function mounted(): string {
  disk = mountSmallDisk();
  if ('skip' in disk) throw new Error(disk.skip);
  return disk.dir;
}

describe.skipIf(Boolean(skip))(`disk full${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('JsonFileStore: the failing append rejects, acknowledged items stay, appends resume after freeing space', async () => {
    const dir = mounted();
    const figures = await fillUntilFull(
      dir,
      () => new JsonFileStore({ dir: path.join(dir, 'store') }),
    );
    console.info(
      `disk full, jsonfile: ${figures.acknowledged} acknowledged appends of 20 KB, 0 lost`,
    );
    expect(figures.acknowledged).toBeGreaterThan(50);
  });

  it('SqliteStore: the failing append rejects, acknowledged items stay, appends resume after freeing space', async () => {
    const dir = mounted();
    const figures = await fillUntilFull(
      dir,
      () => new SqliteStore({ path: path.join(dir, 'threads.db') }),
    );
    console.info(
      `disk full, sqlite: ${figures.acknowledged} acknowledged appends of 20 KB, 0 lost`,
    );
    expect(figures.acknowledged).toBeGreaterThan(50);
  });
});
