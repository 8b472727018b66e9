import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendVerified, replaceVerified } from '../../src/stores/safeWrite.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-safe-write-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('appendVerified', () => {
  it('creates the file and returns the new length after each append', async () => {
    const file = path.join(dir, 'log.jsonl');
    expect(await appendVerified(file, 0, bytes('one\n'))).toBe(4);
    expect(await appendVerified(file, 4, bytes('two\n'), { fsync: false })).toBe(8);
    expect(fs.readFileSync(file, 'utf8')).toBe('one\ntwo\n');
  });

  it('cuts a torn tail after the valid length before appending', async () => {
    const file = path.join(dir, 'log.jsonl');
    fs.writeFileSync(file, 'one\n{"torn');
    expect(await appendVerified(file, 4, bytes('two\n'))).toBe(8);
    expect(fs.readFileSync(file, 'utf8')).toBe('one\ntwo\n');
  });

  it('appends nothing for empty data and keeps the length', async () => {
    const file = path.join(dir, 'log.jsonl');
    fs.writeFileSync(file, 'one\n');
    expect(await appendVerified(file, 4, Buffer.alloc(0))).toBe(4);
  });

  it('fails on a path it cannot open, leaving nothing behind', async () => {
    const file = path.join(dir, 'missing-folder', 'log.jsonl');
    await expect(appendVerified(file, 0, bytes('x'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(fs.existsSync(path.dirname(file))).toBe(false);
  });
});

describe('replaceVerified', () => {
  it('replaces the whole file and leaves no temp file', async () => {
    const file = path.join(dir, 'thread.jsonl');
    fs.writeFileSync(file, 'old content that is longer\n');
    await replaceVerified(file, bytes('new\n'));
    expect(fs.readFileSync(file, 'utf8')).toBe('new\n');
    expect(fs.readdirSync(dir)).toEqual(['thread.jsonl']);
  });

  it('creates a missing file, with or without fsync', async () => {
    await replaceVerified(path.join(dir, 'a.json'), bytes('{}'), { fsync: false });
    await replaceVerified(path.join(dir, 'b.json'), bytes('[]'));
    expect(fs.readFileSync(path.join(dir, 'a.json'), 'utf8')).toBe('{}');
    expect(fs.readFileSync(path.join(dir, 'b.json'), 'utf8')).toBe('[]');
  });

  it('on failure leaves the old file untouched and removes its temp file', async () => {
    const target = path.join(dir, 'target');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'inside'), 'keep');
    // Renaming a file over a non-empty directory fails after the temp file was written.
    await expect(replaceVerified(target, bytes('data'))).rejects.toThrow();
    expect(fs.readFileSync(path.join(target, 'inside'), 'utf8')).toBe('keep');
    expect(fs.readdirSync(dir)).toEqual(['target']);
  });

  it('concurrent replacements each complete, and the file holds one of them whole', async () => {
    const file = path.join(dir, 'race.json');
    const texts = Array.from({ length: 8 }, (_, i) => `${String(i).repeat(1000)}\n`);
    await Promise.all(texts.map((text) => replaceVerified(file, bytes(text), { fsync: false })));
    expect(texts).toContain(fs.readFileSync(file, 'utf8'));
    expect(fs.readdirSync(dir)).toEqual(['race.json']);
  });
});
