import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileIndex } from '../../src/files/localIndex.js';
import { captureLogger, countingReader, docsFolder, writeDoc } from './helpers.js';

function touch(file: string, seconds: number): void {
  fs.utimesSync(file, seconds, seconds);
}

describe('FileIndex transitions between text, binary and too large', () => {
  it('a binary file that becomes text is re-indexed as changed and becomes searchable', async () => {
    const { folder, indexDir } = docsFolder({ 'notes.dat': Buffer.from([0x61, 0x00, 0x62]) });
    const { logger, entries } = captureLogger();
    const index = new FileIndex(folder, { indexDir, logger });
    expect(await index.update()).toMatchObject({ skipped: ['notes.dat'], added: [] });
    expect(entries).toHaveLength(1);
    expect(entries[0]!.msg).toContain('skipped "notes.dat"');
    expect(entries[0]!.msg).toContain('a binary file');

    writeDoc(folder, 'notes.dat', 'Kelp forests absorb carbon.\n');
    touch(path.join(folder, 'notes.dat'), 3_000_000);
    expect(await index.update()).toMatchObject({ changed: ['notes.dat'], skipped: [] });
    expect((await index.search('kelp')).map((hit) => hit.path)).toEqual(['notes.dat']);
  });

  it('a text file that grows past maxFileBytes is dropped from results, warned about once', async () => {
    const { folder, indexDir } = docsFolder({ 'log.txt': 'Seagrass meadows store carbon.\n' });
    const { logger, entries } = captureLogger();
    const index = new FileIndex(folder, { indexDir, logger, maxFileBytes: 100 });
    expect((await index.search('seagrass')).length).toBe(1);

    writeDoc(folder, 'log.txt', `Seagrass meadows store carbon.\n${'x'.repeat(200)}\n`);
    touch(path.join(folder, 'log.txt'), 4_000_000);
    expect(await index.update()).toMatchObject({ skipped: ['log.txt'] });
    expect(await index.search('seagrass')).toEqual([]);
    expect(entries.map((entry) => entry.msg)).toEqual([
      expect.stringContaining('larger than 100 bytes'),
    ]);
    expect(await index.update()).toMatchObject({ skipped: [], unchanged: 1 });
    expect(entries).toHaveLength(1);
  });

  it('never reads a file skipped by its extension', async () => {
    const { folder, indexDir } = docsFolder({
      'photo.png': 'not really a png',
      'a.md': 'Anchovy\n',
    });
    const spy = countingReader(folder);
    const index = new FileIndex(folder, {
      indexDir,
      readFile: spy.readFile,
      logger: captureLogger().logger,
    });
    expect(await index.update()).toMatchObject({ added: ['a.md'], skipped: ['photo.png'] });
    expect(spy.reads).toEqual(['a.md']);
  });

  it('indexes an empty file with no chunks (unsearchable), and finds it once it has text', async () => {
    const { folder, indexDir } = docsFolder({ 'empty.md': '' });
    const index = new FileIndex(folder, { indexDir });
    expect(await index.update()).toMatchObject({ added: ['empty.md'] });
    // No chunk, so not even its name matches yet.
    expect(await index.search('empty')).toEqual([]);
    writeDoc(folder, 'empty.md', 'Now about plankton.\n');
    touch(path.join(folder, 'empty.md'), 5_000_000);
    expect(await index.update()).toMatchObject({ changed: ['empty.md'] });
    expect((await index.search('plankton'))[0]).toMatchObject({ path: 'empty.md', startLine: 1 });
  });

  it('a file renamed is removed under the old path and added under the new', async () => {
    const { folder, indexDir } = docsFolder({ 'old.md': 'Narwhal tusks are teeth.\n' });
    const index = new FileIndex(folder, { indexDir });
    await index.update();
    fs.renameSync(path.join(folder, 'old.md'), path.join(folder, 'new.md'));
    expect(await index.update()).toMatchObject({ added: ['new.md'], removed: ['old.md'] });
    expect((await index.search('narwhal')).map((hit) => hit.path)).toEqual(['new.md']);
  });
});

describe('FileIndex persistence and search edges', () => {
  it('two folders share an index directory without mixing their files', async () => {
    const first = docsFolder({ 'a.md': 'Walrus colonies.\n' });
    const second = docsFolder({ 'b.md': 'Walrus tusks.\n' });
    const shared = first.indexDir;
    const one = new FileIndex(first.folder, { indexDir: shared });
    const two = new FileIndex(second.folder, { indexDir: shared });
    expect((await one.search('walrus')).map((hit) => hit.path)).toEqual(['a.md']);
    expect((await two.search('walrus')).map((hit) => hit.path)).toEqual(['b.md']);
    expect(one.indexPath).not.toBe(two.indexPath);
    expect(fs.readdirSync(shared).sort()).toEqual(
      [path.basename(one.indexPath!), path.basename(two.indexPath!)].sort(),
    );
  });

  it('a blank query returns nothing but still brings the index up to date', async () => {
    const { folder, indexDir } = docsFolder({ 'a.md': 'Octopus\n' });
    const index = new FileIndex(folder, { indexDir });
    expect(await index.search('   ')).toEqual([]);
    expect(fs.existsSync(index.indexPath!)).toBe(true);
  });

  it('limit caps the citations of one search', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 6 }, (_, i) => [`f${i}.md`, `Dolphin fact number ${i}.\n`]),
    );
    const { folder, indexDir } = docsFolder(files);
    const index = new FileIndex(folder, { indexDir, maxResults: 4 });
    expect(await index.search('dolphin')).toHaveLength(4);
    expect(await index.search('dolphin', { limit: 2 })).toHaveLength(2);
  });

  it('does not save when nothing changed', async () => {
    const { folder, indexDir } = docsFolder({ 'a.md': 'Manatee\n' });
    const index = new FileIndex(folder, { indexDir });
    await index.update();
    const before = fs.statSync(index.indexPath!).mtimeMs;
    fs.utimesSync(index.indexPath!, 1, 1);
    await index.update();
    expect(fs.statSync(index.indexPath!).mtimeMs).toBe(1000);
    expect(before).toBeGreaterThan(1000);
  });

  it('a folder removed after indexing fails the update with the fix', async () => {
    const { folder, indexDir } = docsFolder({ 'a.md': 'Manatee\n' });
    const index = new FileIndex(folder, { indexDir, owner: 'Agent "Librarian"' });
    await index.update();
    fs.rmSync(folder, { recursive: true });
    await expect(index.update()).rejects.toThrow(
      `Agent "Librarian": filesFolder "${folder}" does not exist. Create it or fix the path.`,
    );
  });

  it('refuses options that would not work, naming the owner', () => {
    const { folder } = docsFolder({});
    expect(() => new FileIndex(folder, { chunkLines: 5, chunkOverlap: 5, owner: 'X' })).toThrow(
      'X: fileSearch.chunkOverlap is 5; it must be a whole number from 0 to chunkLines - 1 (4).',
    );
    expect(() => new FileIndex(folder, { maxResults: 0, owner: 'X' })).toThrow(
      'X: fileSearch.maxResults is 0; pass a whole number ≥ 1 or omit it.',
    );
  });
});
