import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/files/chunks.js';
import { FileIndex } from '../../src/files/localIndex.js';
import { defaultIndexDir, folderKey } from '../../src/files/options.js';
import { captureLogger, docsFolder, linesWith } from './helpers.js';

describe('FileIndex search', () => {
  it('indexes text, Markdown, JSON, CSV and code files', async () => {
    const { folder, indexDir } = docsFolder({
      'notes.txt': 'The aurora kettle whistles at dawn.\n',
      'guide.md': '# Guide\n\nCalibrate the bramblewick sensor monthly.\n',
      'config.json': '{ "mode": "quasarline", "retries": 3 }\n',
      'prices.csv': 'item,price\nthistledown widget,12\n',
      'src/code.ts': 'export function frobnicateGizmo(): number {\n  return 42;\n}\n',
    });
    const index = new FileIndex(folder, { indexDir });
    const report = await index.update();
    expect(report.added.sort()).toEqual([
      'config.json',
      'guide.md',
      'notes.txt',
      'prices.csv',
      'src/code.ts',
    ]);
    expect((await index.search('aurora kettle'))[0]?.path).toBe('notes.txt');
    expect((await index.search('bramblewick'))[0]?.path).toBe('guide.md');
    expect((await index.search('quasarline'))[0]?.path).toBe('config.json');
    expect((await index.search('thistledown'))[0]?.path).toBe('prices.csv');
    expect((await index.search('frobnicateGizmo'))[0]?.path).toBe('src/code.ts');
    expect(await index.search('   ')).toEqual([]);
  });

  it('cites the exact lines that hold the terms, inside a long file', async () => {
    const { folder, indexDir } = docsFolder({
      'manual.md': linesWith(120, {
        57: 'To reset the zephyrite valve, hold the blue lever.',
        101: 'Warranty: the marmalade pump is covered for',
        103: 'three years of marmalade service.',
      }),
    });
    const index = new FileIndex(folder, { indexDir });
    const [valve] = await index.search('zephyrite valve');
    expect(valve).toMatchObject({ path: 'manual.md', startLine: 57, endLine: 57 });
    expect(valve!.excerpt).toBe('To reset the zephyrite valve, hold the blue lever.');
    expect(valve!.score).toBeGreaterThan(0);
    const [pump] = await index.search('marmalade');
    expect(pump).toMatchObject({ path: 'manual.md', startLine: 101, endLine: 103 });
    expect(pump!.excerpt).toContain('covered for filler line number 102 three years');
  });

  it('returns at most maxResults citations, best first, one per passage', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 8; i++)
      files[`doc${i}.md`] = `Gloamberry ${'gloamberry '.repeat(i)}facts.\n`;
    const { folder, indexDir } = docsFolder(files);
    const results = await new FileIndex(folder, { indexDir, maxResults: 3 }).search('gloamberry');
    expect(results).toHaveLength(3);
    expect(results[0]!.score).toBeGreaterThanOrEqual(results[1]!.score);
    expect(new Set(results.map((r) => r.path)).size).toBe(3);
  });

  it('splits into overlapping windows of lines', () => {
    const text = Array.from({ length: 95 }, (_, i) => `l${i + 1}`).join('\n');
    expect(chunkText(text, 40, 10).map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 40],
      [31, 70],
      [61, 95],
    ]);
    expect(chunkText('', 40, 10)).toEqual([]);
  });
});

describe('FileIndex binary files', () => {
  it('skips binary files with one warning each, and indexes the rest', async () => {
    const { folder, indexDir } = docsFolder({
      'readme.md': 'Lanternfish are searchable.\n',
      'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]),
      'data.txt': Buffer.from('lanternfish\u0000\u0001binary', 'utf8'),
    });
    const { logger, entries } = captureLogger();
    const index = new FileIndex(folder, { indexDir, logger });
    const report = await index.update();
    expect(report.skipped.sort()).toEqual(['data.txt', 'logo.png']);
    expect(entries.map((e) => [e.level, e.path, e.reason])).toEqual([
      [40, 'data.txt', 'binary'],
      [40, 'logo.png', 'binary'],
    ]);
    expect(String(entries[0]!.msg)).toContain('skipped "data.txt"');
    expect((await index.search('lanternfish')).map((c) => c.path)).toEqual(['readme.md']);
    expect(entries).toHaveLength(2);
  });
});

describe('FileIndex location and failures', () => {
  it('lives beside the default store, or in memory for a :memory: store', () => {
    expect(defaultIndexDir({ COLLOQUY_DB: '/data/app/colloquy.db' })).toBe('/data/app/files');
    expect(defaultIndexDir({ COLLOQUY_DB: ':memory:' })).toBeNull();
    expect(defaultIndexDir({})).toBe(path.resolve('.colloquy', 'files'));
    const { folder, indexDir } = docsFolder({ 'a.md': 'x\n' });
    expect(new FileIndex(folder, { indexDir }).indexPath).toBe(
      path.join(indexDir, `${folderKey(folder)}.json`),
    );
  });

  it('surfaces a failed index write', async () => {
    const { folder, indexDir } = docsFolder({ 'a.md': 'alpha\n' });
    fs.mkdirSync(path.dirname(indexDir), { recursive: true });
    fs.writeFileSync(indexDir, 'a file where the index dir should be');
    await expect(new FileIndex(folder, { indexDir }).search('alpha')).rejects.toMatchObject({
      code: 'STORE_ERROR',
      message: expect.stringContaining('Could not write the files index'),
    });
  });

  it('rejects a corrupt index file and a missing folder with the fix', async () => {
    const { folder, indexDir } = docsFolder({ 'a.md': 'alpha\n' });
    const index = new FileIndex(folder, { indexDir });
    fs.mkdirSync(indexDir, { recursive: true });
    fs.writeFileSync(index.indexPath!, '{ not json');
    await expect(index.update()).rejects.toMatchObject({
      code: 'SERIALIZATION_ERROR',
      message: expect.stringContaining('Delete it'),
    });
    const missing = new FileIndex(path.join(folder, 'nope'), { indexDir });
    await expect(missing.update()).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('does not exist'),
    });
  });
});
