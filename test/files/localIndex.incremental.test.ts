import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileIndex } from '../../src/files/localIndex.js';
import { countingReader, docsFolder, writeDoc } from './helpers.js';

function setTime(file: string, seconds: number): void {
  fs.utimesSync(file, seconds, seconds);
}

describe('FileIndex incremental updates', () => {
  it('re-reads nothing unchanged, re-indexes a changed file and drops a deleted one', async () => {
    const { folder, indexDir } = docsFolder({
      'a.md': 'Apricot orchards bloom early.\n',
      'b.md': 'Blueberry bushes need acid soil.\n',
      'c.md': 'Cranberry bogs flood in autumn.\n',
    });
    const spy = countingReader(folder);
    const index = new FileIndex(folder, { indexDir, readFile: spy.readFile });
    expect(await index.update()).toMatchObject({ added: ['a.md', 'b.md', 'c.md'], unchanged: 0 });
    expect(spy.reads).toEqual(['a.md', 'b.md', 'c.md']);

    spy.reads.length = 0;
    expect(await index.update()).toEqual({
      added: [],
      changed: [],
      removed: [],
      skipped: [],
      unchanged: 3,
    });
    expect(spy.reads).toEqual([]);

    setTime(path.join(folder, 'a.md'), 1_000_000); // touched, same bytes: read and hashed, not re-indexed
    expect(await index.update()).toMatchObject({ changed: [], unchanged: 3 });
    expect(spy.reads).toEqual(['a.md']);

    spy.reads.length = 0;
    writeDoc(folder, 'b.md', 'Blackberry brambles spread fast.\n');
    setTime(path.join(folder, 'b.md'), 2_000_000);
    fs.rmSync(path.join(folder, 'c.md'));
    expect(await index.update()).toEqual({
      added: [],
      changed: ['b.md'],
      removed: ['c.md'],
      skipped: [],
      unchanged: 1,
    });
    expect(spy.reads).toEqual(['b.md']);
    expect((await index.search('blackberry'))[0]?.path).toBe('b.md');
    expect(await index.search('blueberry')).toEqual([]);
    expect(await index.search('cranberry')).toEqual([]);
    expect((await index.search('apricot'))[0]?.path).toBe('a.md');
  });

  it('persists: a second index over the same folder reads no file and finds the same results', async () => {
    const { folder, indexDir } = docsFolder({
      'guide.md': 'Line one.\nThe quokka gate opens at nine.\n',
      'x.txt': 'other\n',
    });
    const first = new FileIndex(folder, { indexDir });
    const before = await first.search('quokka gate');
    expect(before[0]).toMatchObject({ path: 'guide.md', startLine: 2, endLine: 2 });
    expect(fs.existsSync(first.indexPath!)).toBe(true);

    const spy = countingReader(folder);
    const second = new FileIndex(folder, { indexDir, readFile: spy.readFile });
    expect(await second.search('quokka gate')).toEqual(before);
    expect(spy.reads).toEqual([]);

    fs.rmSync(path.join(folder, 'x.txt'));
    expect((await second.update()).removed).toEqual(['x.txt']);
    const third = new FileIndex(folder, { indexDir, readFile: spy.readFile });
    expect(await third.update()).toMatchObject({ removed: [], unchanged: 1 });
    expect(spy.reads).toEqual([]);
  });

  it('rebuilds when the chunk settings change', async () => {
    const { folder, indexDir } = docsFolder({ 'a.md': 'Walrus tusks.\n' });
    await new FileIndex(folder, { indexDir }).update();
    const resized = new FileIndex(folder, { indexDir, chunkLines: 10, chunkOverlap: 2 });
    expect((await resized.update()).added).toEqual(['a.md']);
    expect((await resized.search('walrus'))[0]?.path).toBe('a.md');
  });

  it('serializes concurrent updates', async () => {
    const { folder, indexDir } = docsFolder({ 'a.md': 'Yak wool.\n' });
    const index = new FileIndex(folder, { indexDir });
    const [one, two] = await Promise.all([index.update(), index.update()]);
    expect(one.added).toEqual(['a.md']);
    expect(two).toMatchObject({ added: [], unchanged: 1 });
  });
});
