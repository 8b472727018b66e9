import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFileName, JsonFileStore } from '../../src/stores/jsonFile.js';
import type { ThreadItem } from '../../src/stores/item.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/jsonfile-store/v1', import.meta.url));
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const tmp = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-jsonl-'));
  dirs.push(dir);
  return dir;
};
const item = (id: string, content = id): ThreadItem => ({ id, item: { role: 'user', content } });
const logOf = (dir: string, id: string) => path.join(dir, 'threads', `${encodeFileName(id)}l`);

describe('JsonFileStore log format', () => {
  it('adds exactly one line per append: the file grows by the append, not by the thread', async () => {
    const dir = tmp();
    const store = new JsonFileStore({ dir, fsync: false });
    let version = 0;
    const sizes: number[] = [];
    for (let n = 0; n < 50; n++) {
      version = await store.append('t', [item(`i${n}`, 'x'.repeat(100))], {
        expectedVersion: version,
      });
      sizes.push(fs.statSync(logOf(dir, 't')).size);
    }
    const growth = sizes.slice(1).map((s, i) => s - sizes[i]!);
    expect(Math.max(...growth) - Math.min(...growth)).toBeLessThanOrEqual(2);
    expect(fs.readFileSync(logOf(dir, 't'), 'utf8').split('\n')).toHaveLength(52);
  });

  it('reads a thread whose last line is torn, and the next append cuts the torn tail', async () => {
    const dir = tmp();
    const store = new JsonFileStore({ dir, fsync: false });
    await store.append('t', [item('a'), item('b')], { expectedVersion: 0 });
    fs.appendFileSync(logOf(dir, 't'), '{"op":"append","items":[{"id":"c","ite');
    const reopened = new JsonFileStore({ dir, fsync: false });
    expect((await reopened.readItems('t')).map((i) => i.id)).toEqual(['a', 'b']);
    expect((await reopened.getThread('t'))?.version).toBe(2);
    expect(await reopened.append('t', [item('d')], { expectedVersion: 2 })).toBe(3);
    expect((await new JsonFileStore({ dir }).readItems('t')).map((i) => i.id)).toEqual([
      'a',
      'b',
      'd',
    ]);
  });

  it('treats a create torn before its first newline as no thread', async () => {
    const dir = tmp();
    fs.mkdirSync(path.join(dir, 'threads'), { recursive: true });
    fs.writeFileSync(logOf(dir, 't'), '{"op":"thread","schemaVersion":2,"thre');
    const store = new JsonFileStore({ dir });
    expect(await store.getThread('t')).toBeNull();
    expect(await store.listThreads()).toEqual([]);
    expect(await store.append('t', [item('a')], { expectedVersion: 0 })).toBe(1);
    expect((await store.readItems('t')).map((i) => i.id)).toEqual(['a']);
  });

  it('reports a damaged line that is not the last one, naming the file and line', async () => {
    const dir = tmp();
    const store = new JsonFileStore({ dir });
    await store.append('t', [item('a')], { expectedVersion: 0 });
    await store.append('t', [item('b')], { expectedVersion: 1 });
    const file = logOf(dir, 't');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines[1] = '{"op":"append"';
    fs.writeFileSync(file, lines.join('\n'));
    await expect(new JsonFileStore({ dir }).readItems('t')).rejects.toMatchObject({
      code: 'SERIALIZATION_ERROR',
      message: expect.stringMatching(/line 2 of .*t\.jsonl/),
    });
  });

  it('notices appends by another store instance on the same directory', async () => {
    const dir = tmp();
    const a = new JsonFileStore({ dir, fsync: false });
    const b = new JsonFileStore({ dir, fsync: false });
    await a.append('t', [item('a')], { expectedVersion: 0 });
    expect((await b.getThread('t'))?.version).toBe(1);
    await b.append('t', [item('b')], { expectedVersion: 1 });
    await expect(a.append('t', [item('c')], { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'THREAD_CONFLICT',
    });
    expect(await a.append('t', [item('c')], { expectedVersion: 2 })).toBe(3);
  });

  it('compacts superseded metadata so that repeated setMetadata keeps the file bounded', async () => {
    const dir = tmp();
    const store = new JsonFileStore({ dir, fsync: false });
    await store.append('t', [item('a')], { expectedVersion: 0 });
    const big = 'm'.repeat(64 * 1024);
    for (let n = 0; n < 60; n++) await store.setMetadata('t', { n, big });
    expect(fs.statSync(logOf(dir, 't')).size).toBeLessThan(2.5 * 1024 * 1024);
    const record = await new JsonFileStore({ dir }).getThread('t');
    expect(record?.metadata).toEqual({ n: 59, big });
    expect((await store.readItems('t')).map((i) => i.id)).toEqual(['a']);
  });
});

describe('JsonFileStore reads and migrates the schemaVersion 1 format (frozen fixture)', () => {
  it('reads v1 files as they are and migrates a thread on its first write', async () => {
    const dir = tmp();
    fs.cpSync(FIXTURE, dir, { recursive: true });
    const id = 'chat-1__Agent__USER';
    const store = new JsonFileStore({ dir });
    expect(await store.getThread(id)).toMatchObject({
      chatId: 'chat-1',
      version: 2,
      metadata: { note: 'frozen v1' },
    });
    expect((await store.readItems(id)).map((i) => i.id)).toEqual(['u1', 'a1']);
    expect((await store.listThreads({ chatId: 'chat-1' })).map((t) => t.threadId)).toEqual([id]);
    expect(await store.getCheckpoint('cp1')).toMatchObject({
      label: 'before',
      threads: { [id]: 2 },
    });
    expect(await store.append(id, [item('u2')], { expectedVersion: 2 })).toBe(3);
    expect(fs.existsSync(path.join(dir, 'threads', encodeFileName(id)))).toBe(false);
    expect(fs.existsSync(logOf(dir, id))).toBe(true);
    const reopened = new JsonFileStore({ dir });
    expect((await reopened.readItems(id)).map((i) => i.id)).toEqual(['u1', 'a1', 'u2']);
    expect((await reopened.getThread(id))?.metadata).toEqual({ note: 'frozen v1' });
    expect((await reopened.listThreads()).map((t) => t.threadId)).toEqual([id]);
  });

  it('migrates on setMetadata, fork and reset too', async () => {
    const dir = tmp();
    fs.cpSync(FIXTURE, dir, { recursive: true });
    const id = 'chat-1__Agent__USER';
    const store = new JsonFileStore({ dir });
    await store.fork(id, 'copy');
    expect((await store.readItems('copy')).map((i) => i.id)).toEqual(['u1', 'a1']);
    await store.setMetadata(id, { note: 'changed' });
    expect((await new JsonFileStore({ dir }).getThread(id))?.metadata).toEqual({ note: 'changed' });
    expect(await store.rollback(id, 1)).toMatch(/~reset~/);
    expect((await new JsonFileStore({ dir }).readItems(id)).map((i) => i.id)).toEqual(['u1']);
  });
});
