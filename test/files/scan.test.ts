import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { hasBinaryExtension, looksBinary, scanFolder, sha256 } from '../../src/files/scan.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'colloquy-scan-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(relative: string, text = 'x'): void {
  const file = path.join(dir, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const paths = async () => (await scanFolder(dir, 'Agent "Reader"')).map((file) => file.path);

describe('scanFolder', () => {
  it('lists regular files sorted by path, with / separators, size and absolute path', async () => {
    write('b.md', 'hello');
    write('a/z.txt');
    write('a/b/c.txt');
    const files = await scanFolder(dir, 'owner');
    expect(files.map((file) => file.path)).toEqual(['a/b/c.txt', 'a/z.txt', 'b.md']);
    expect(files[2]).toMatchObject({ absolutePath: path.join(dir, 'b.md'), size: 5 });
    expect(files[2]!.mtimeMs).toBeGreaterThan(0);
  });

  it('leaves out hidden files and folders and dependency folders', async () => {
    write('.env', 'SECRET=1');
    write('.hidden/inside.txt');
    write('node_modules/pkg/index.js');
    write('.git/config');
    write('.colloquy/colloquy.db');
    write('docs/keep.md');
    expect(await paths()).toEqual(['docs/keep.md']);
  });

  it('applies the root .gitignore, directory patterns and negations', async () => {
    write('.gitignore', '*.log\nbuild/\n!keep.log\n');
    write('app.log');
    write('keep.log');
    write('build/out.txt');
    write('src/build.txt');
    expect(await paths()).toEqual(['keep.log', 'src/build.txt']);
  });

  it('applies a nested .gitignore relative to its own folder only', async () => {
    write('notes/.gitignore', 'draft.md\n/local.txt\n');
    write('notes/draft.md');
    write('notes/local.txt');
    write('notes/sub/local.txt');
    write('draft.md');
    expect(await paths()).toEqual(['draft.md', 'notes/sub/local.txt']);
  });

  it('an ignored folder is not walked, even with a negation for a file inside', async () => {
    write('.gitignore', 'private/\n!private/public.txt\n');
    write('private/public.txt');
    expect(await paths()).toEqual([]);
  });

  it('names the owner and the folder when it is missing or not a directory', async () => {
    const missing = path.join(dir, 'missing');
    await expect(scanFolder(missing, 'Agent "Reader"')).rejects.toThrow(
      new ConfigError(
        `Agent "Reader": filesFolder "${missing}" does not exist. Create it or fix the path.`,
      ),
    );
    write('file.txt');
    const file = path.join(dir, 'file.txt');
    await expect(scanFolder(file, 'Agent "Reader"')).rejects.toThrow(
      `Agent "Reader": filesFolder "${file}" is not a directory. Pass a folder of documents.`,
    );
  });

  it('an empty folder has no files', async () => {
    expect(await scanFolder(dir, 'owner')).toEqual([]);
  });
});

describe('binary detection and hashing', () => {
  it('knows binary extensions case-insensitively, and not text ones', () => {
    for (const name of ['a.PNG', 'b.pdf', 'c.tar', 'd.sqlite3', 'e.woff2'])
      expect(hasBinaryExtension(name), name).toBe(true);
    for (const name of ['a.md', 'b.ts', 'c', 'd.json', 'png'])
      expect(hasBinaryExtension(name), name).toBe(false);
  });

  it('looks for a NUL byte in the first 8 KiB only', () => {
    expect(looksBinary(Buffer.from('plain text'))).toBe(false);
    expect(looksBinary(Buffer.from([0x41, 0x00, 0x42]))).toBe(true);
    const late = Buffer.alloc(9000, 0x41);
    late[8191] = 0;
    expect(looksBinary(late)).toBe(true);
    late[8191] = 0x41;
    late[8192] = 0;
    expect(looksBinary(late)).toBe(false);
  });

  it('hashes strings and bytes alike', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256(Buffer.from('abc'))).toBe(sha256('abc'));
  });
});
