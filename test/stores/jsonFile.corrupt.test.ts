// JsonFileStore on files it did not write as they are now: renamed, damaged or mixed with files of
// the old format. Every problem names the file and the fix; nothing is silently dropped.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonFileStore } from '../../src/stores/jsonFile.js';
import { encodeFileName } from '../../src/stores/jsonFileIo.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
function tmp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-jsonfile-corrupt-'));
  dirs.push(dir);
  return dir;
}

const item = (id: string) => ({ id, item: { role: 'user' as const, content: id } });
const logFile = (dir: string, threadId: string) =>
  path.join(dir, 'threads', `${encodeFileName(threadId)}l`);

async function seeded(dir: string, ...threads: string[]): Promise<void> {
  const store = new JsonFileStore({ dir, fsync: false });
  for (const threadId of threads)
    await store.append(threadId, [item(`${threadId}-1`)], { expectedVersion: 0, chatId: 'c' });
  await store.close();
}

describe('JsonFileStore with damaged files', () => {
  it('a thread log copied under another name is refused on read, naming the fix', async () => {
    const dir = tmp();
    await seeded(dir, 'a');
    fs.copyFileSync(logFile(dir, 'a'), logFile(dir, 'b'));
    const store = new JsonFileStore({ dir, fsync: false });
    await expect(store.getThread('b')).rejects.toThrow(
      `JsonFileStore: "${logFile(dir, 'b')}" holds thread "a", but "b" was asked for. Move the file back to its own name.`,
    );
    expect((await store.getThread('a'))!.version).toBe(1);
  });

  it('listThreads names a log damaged in the middle, with its line', async () => {
    const dir = tmp();
    await seeded(dir, 'good', 'bad');
    const file = logFile(dir, 'bad');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    fs.writeFileSync(file, [lines[0], '{"op":"append",', lines[1], ''].join('\n'));
    const store = new JsonFileStore({ dir, fsync: false });
    await expect(store.listThreads({ chatId: 'c' })).rejects.toMatchObject({
      code: 'SERIALIZATION_ERROR',
      message: expect.stringContaining(`line 2 of "${file}" is not valid JSON`),
    });
  });

  it('an append to a log with a damaged middle line fails and leaves the file as it was', async () => {
    const dir = tmp();
    await seeded(dir, 't');
    const file = logFile(dir, 't');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const damaged = [lines[0], 'garbage', lines[1], ''].join('\n');
    fs.writeFileSync(file, damaged);
    const store = new JsonFileStore({ dir, fsync: false });
    await expect(store.append('t', [item('t-2')], { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'SERIALIZATION_ERROR',
    });
    expect(fs.readFileSync(file, 'utf8')).toBe(damaged);
  });

  it('a log of a newer schemaVersion is refused, naming the version it reads', async () => {
    const dir = tmp();
    await seeded(dir, 't');
    const file = logFile(dir, 't');
    const [header, ...rest] = fs.readFileSync(file, 'utf8').split('\n');
    const newer = { ...(JSON.parse(header!) as Record<string, unknown>), schemaVersion: 3 };
    fs.writeFileSync(file, [JSON.stringify(newer), ...rest].join('\n'));
    await expect(new JsonFileStore({ dir }).getThread('t')).rejects.toThrow(
      /line 1 of ".*" is not a thread log record \(schemaVersion 2\)/,
    );
  });

  it('an old .json file next to its .jsonl log is ignored: the log wins', async () => {
    const dir = tmp();
    await seeded(dir, 't');
    fs.writeFileSync(path.join(dir, 'threads', encodeFileName('t')), '{"not": "read"}');
    const store = new JsonFileStore({ dir, fsync: false });
    expect((await store.listThreads({ chatId: 'c' })).map((r) => [r.threadId, r.version])).toEqual([
      ['t', 1],
    ]);
    expect((await store.readItems('t')).map((i) => i.id)).toEqual(['t-1']);
  });

  it('an old .json file that is not JSON is named by listThreads', async () => {
    const dir = tmp();
    fs.mkdirSync(path.join(dir, 'threads'), { recursive: true });
    const file = path.join(dir, 'threads', encodeFileName('old'));
    fs.writeFileSync(file, '{"schemaVersion": 1,');
    await expect(new JsonFileStore({ dir }).listThreads()).rejects.toThrow(
      new RegExp(
        `"${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}" is not valid JSON .*Restore or remove the file\\.`,
      ),
    );
  });

  it('a store directory that is a file fails writes with a StoreError naming the operation', async () => {
    const dir = tmp();
    const blocked = path.join(dir, 'store');
    fs.writeFileSync(blocked, 'not a folder');
    const store = new JsonFileStore({ dir: blocked, fsync: false });
    await expect(store.append('t', [item('x')], { expectedVersion: 0 })).rejects.toMatchObject({
      code: 'STORE_ERROR',
      message: expect.stringContaining('append to thread "t" (nothing was written) failed'),
    });
    await expect(store.setMetadata('t', { a: 1 })).rejects.toMatchObject({ code: 'STORE_ERROR' });
  });
});
