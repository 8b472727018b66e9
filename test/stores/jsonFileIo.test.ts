import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, SerializationError, StoreError } from '../../src/errors.js';
import {
  encodeFileName,
  fileIo,
  ifMissing,
  jsonFileNames,
  parseJsonFile,
  parseLegacyThread,
  readBytes,
} from '../../src/stores/jsonFileIo.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-jsonfile-io-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const errno = (code: string) => Object.assign(new Error(`${code}: failed`), { code });

describe('fileIo', () => {
  it('wraps an I/O error as a permanent StoreError naming the operation', async () => {
    const error = await fileIo('save thread "t"', () => Promise.reject(errno('EACCES'))).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).transient).toBe(false);
    expect((error as StoreError).message).toBe(
      'jsonfile store: save thread "t" (nothing was written) failed: EACCES: failed. Check the store path, permissions and disk space.',
    );
  });

  it('marks EBUSY, EAGAIN and EMFILE as transient', async () => {
    for (const code of ['EBUSY', 'EAGAIN', 'EMFILE']) {
      const error = (await fileIo('op', () => Promise.reject(errno(code))).catch(
        (caught: unknown) => caught,
      )) as StoreError;
      expect(error.transient, code).toBe(true);
      expect(error.message).toContain('retry, or wrap the store with withRetry()');
    }
  });

  it("passes Colloquy's own errors through unchanged", async () => {
    const own = new ConfigError('bad');
    await expect(fileIo('op', () => Promise.reject(own))).rejects.toBe(own);
    await expect(fileIo('op', async () => 7)).resolves.toBe(7);
  });
});

describe('readBytes, ifMissing and jsonFileNames', () => {
  it('reads a missing file as null, and fails on a directory', async () => {
    expect(await readBytes(path.join(dir, 'absent.json'), 'read')).toBeNull();
    fs.writeFileSync(path.join(dir, 'x.json'), 'abc');
    expect((await readBytes(path.join(dir, 'x.json'), 'read'))!.toString()).toBe('abc');
    await expect(readBytes(dir, 'read dir')).rejects.toThrow(
      /read dir \(nothing was written\) failed: EISDIR/,
    );
  });

  it('ifMissing turns only ENOENT into the value', async () => {
    await expect(ifMissing('none')(errno('ENOENT'))).resolves.toBe('none');
    await expect(ifMissing('none')(errno('EPERM'))).rejects.toMatchObject({ code: 'EPERM' });
  });

  it('lists .json and .jsonl files sorted, skipping temp files, and none for a missing dir', async () => {
    for (const name of ['b.jsonl', 'a.json', '.a.jsonl.1f2e.tmp', 'a.json.123abc', 'notes.txt'])
      fs.writeFileSync(path.join(dir, name), '');
    expect(await jsonFileNames(dir)).toEqual(['a.json', 'b.jsonl']);
    expect(await jsonFileNames(path.join(dir, 'missing'))).toEqual([]);
  });
});

describe('parseJsonFile and parseLegacyThread', () => {
  it('names the file and the fix for invalid JSON', () => {
    expect(() => parseJsonFile(Buffer.from('{"a":'), '/s/x.json')).toThrow(SerializationError);
    expect(() => parseJsonFile(Buffer.from('{"a":'), '/s/x.json')).toThrow(
      /^JsonFileStore: "\/s\/x\.json" is not valid JSON \(.*\)\. Restore or remove the file\.$/,
    );
    expect(parseJsonFile(Buffer.from('[1]'), '/s/x.json')).toEqual([1]);
  });

  it('reads the frozen v1 fixture and refuses it under another id', () => {
    const folder = path.resolve('test/fixtures/jsonfile-store/v1/threads');
    const name = fs.readdirSync(folder)[0]!;
    const bytes = fs.readFileSync(path.join(folder, name));
    const thread = parseLegacyThread(bytes, name);
    expect(encodeFileName(thread.threadId)).toBe(name);
    expect(thread.version).toBe(thread.items.length);
    expect(() => parseLegacyThread(bytes, name, 'another')).toThrow(
      /holds thread ".*", but "another" was asked for/,
    );
  });

  it('refuses a v1 file whose version disagrees with its items', () => {
    const bad = Buffer.from(
      JSON.stringify({
        schemaVersion: 1,
        threadId: 't',
        chatId: null,
        version: 2,
        metadata: {},
        items: [],
        forkedFrom: null,
        createdAt: 'x',
        updatedAt: 'x',
      }),
    );
    expect(() => parseLegacyThread(bad, '/s/t.json')).toThrow(
      /JsonFileStore "\/s\/t\.json": not a valid serialized thread \(schemaVersion 1\): .*version must equal items\.length/s,
    );
  });
});

describe('encodeFileName', () => {
  it('shortens long ids with a hash, keeping distinct ids distinct', () => {
    const a = encodeFileName(`${'x'.repeat(200)}a`);
    const b = encodeFileName(`${'x'.repeat(200)}b`);
    expect(a).not.toBe(b);
    expect(a.length).toBeLessThanOrEqual(100 + 2 + 64 + 5);
    expect(a.startsWith('x'.repeat(100))).toBe(true);
    expect(encodeFileName('x'.repeat(150))).toBe(`${'x'.repeat(150)}.json`);
  });

  it('encodes every byte of non-ASCII ids', () => {
    expect(encodeFileName('é')).toBe('%C3%A9.json');
    expect(encodeFileName('A/b')).toBe('%41%2Fb.json');
  });
});
