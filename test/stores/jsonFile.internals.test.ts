import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CallbackStore } from '../../src/stores/callback.js';
import { encodeFileName, JsonFileStore } from '../../src/stores/jsonFile.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const tmp = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-json-int-'));
  dirs.push(dir);
  return dir;
};

describe('encodeFileName', () => {
  it('keeps safe characters, escapes the rest, and is case-distinct', () => {
    expect(encodeFileName('chat-1_main')).toBe('chat-1_main.json');
    expect(encodeFileName('A/b')).toBe('%41%2Fb.json');
    expect(encodeFileName('a')).not.toBe(encodeFileName('A'));
    expect(encodeFileName('..')).toBe('%2E%2E.json');
    const long = encodeFileName('x'.repeat(500));
    expect(long.length).toBeLessThan(200);
    expect(long).not.toBe(encodeFileName(`${'x'.repeat(499)}y`));
  });
});

describe('JsonFileStore files', () => {
  it('writes one JSON Lines file per thread and ignores leftover temp files', async () => {
    const dir = tmp();
    const store = new JsonFileStore({ dir });
    await store.append('Chat/1', [{ id: 'a', item: { role: 'user', content: 'hi' } }], {
      expectedVersion: 0,
    });
    const file = path.join(dir, 'threads', `${encodeFileName('Chat/1')}l`);
    const lines = fs
      .readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ op: 'thread', schemaVersion: 2, threadId: 'Chat/1' });
    expect(lines[1]).toMatchObject({ op: 'append', items: [{ id: 'a' }] });
    fs.writeFileSync(`${file}.123abc`, '{"half": ');
    fs.writeFileSync(path.join(dir, 'threads', `.${encodeFileName('Chat/1')}l.0a1b.tmp`), '{"op"');
    expect((await store.listThreads()).map((t) => t.threadId)).toEqual(['Chat/1']);
  });

  it('reports a corrupt file as a SerializationError naming it', async () => {
    const dir = tmp();
    fs.mkdirSync(path.join(dir, 'threads'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'threads', 't.json'), '{"schemaVersion": 1, "threadId": "t"');
    await expect(new JsonFileStore({ dir }).readItems('t')).rejects.toMatchObject({
      code: 'SERIALIZATION_ERROR',
      message: expect.stringContaining('t.json'),
    });
  });
});

describe('CallbackStore load validation', () => {
  it('rejects a malformed or mismatched loaded thread with SERIALIZATION_ERROR', async () => {
    const bad = new CallbackStore({ load: () => ({ threadId: 't' }) as never, save: () => {} });
    await expect(bad.getThread('t')).rejects.toMatchObject({ code: 'SERIALIZATION_ERROR' });
    const other = new CallbackStore({
      load: () => ({
        schemaVersion: 1,
        threadId: 'x',
        chatId: null,
        version: 0,
        metadata: {},
        items: [],
        forkedFrom: null,
        createdAt: '',
        updatedAt: '',
      }),
      save: () => {},
    });
    await expect(other.getThread('t')).rejects.toThrow(/holds thread "x"/);
  });
});
