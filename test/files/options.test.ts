import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultIndexDir, folderKey, resolveFileSearchOptions } from '../../src/files/options.js';
import { formatCitations, parseCitations } from '../../src/files/searchTool.js';
import { hasBinaryExtension, looksBinary, sha256 } from '../../src/files/scan.js';

describe('resolveFileSearchOptions', () => {
  it('fills in the defaults, resolving paths', () => {
    const resolved = resolveFileSearchOptions('docs', { indexDir: 'idx' }, 'Agent "A"');
    expect(resolved).toMatchObject({
      mode: 'local',
      folder: path.resolve('docs'),
      indexDir: path.resolve('idx'),
      maxResults: 5,
      chunkLines: 40,
      chunkOverlap: 10,
      maxFileBytes: 2 * 1024 * 1024,
    });
    expect(resolved.vectorStoreName).toBe(`docs-${folderKey('docs').slice(0, 8)}`);
  });

  it.each([
    ['', {}, /filesFolder is ""/],
    ['docs', { mode: 'cloud' }, /mode "cloud" is unknown/],
    ['docs', { maxResults: 0 }, /maxResults/],
    ['docs', { chunkLines: 2.5 }, /chunkLines/],
    ['docs', { chunkLines: 5, chunkOverlap: 5 }, /chunkOverlap is 5.*0 to chunkLines - 1 \(4\)/],
    ['docs', { chunkOverlap: -1 }, /chunkOverlap is -1/],
  ])('refuses folder %j with %j, naming the owner', (folder, options, message) => {
    expect(() => resolveFileSearchOptions(folder, options as never, 'Agent "A"')).toThrow(message);
    expect(() => resolveFileSearchOptions(folder, options as never, 'Agent "A"')).toThrow(
      /Agent "A"/,
    );
  });
});

describe('folderKey and defaultIndexDir', () => {
  it('key a folder by its absolute path', () => {
    expect(folderKey('docs')).toBe(folderKey(path.resolve('docs')));
    expect(folderKey('docs')).not.toBe(folderKey('other'));
    expect(folderKey('docs')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('put the index beside the default store, and nowhere for an in-memory store', () => {
    expect(defaultIndexDir({ COLLOQUY_DB: '/data/x/c.db' })).toBe('/data/x/files');
    expect(defaultIndexDir({ COLLOQUY_DB: ':memory:' })).toBeNull();
  });
});

describe('citations', () => {
  it('format and parse back', () => {
    const citations = [
      { path: 'a/b.md', startLine: 3, endLine: 5, excerpt: 'refund: 30 days', score: 2 },
      { path: 'c d.txt', startLine: 1, endLine: 1, excerpt: '', score: 1 },
    ];
    const listing = formatCitations(citations);
    expect(listing).toBe('[1] a/b.md:3-5 — refund: 30 days\n[2] c d.txt:1-1 — ');
    expect(parseCitations(listing)).toEqual(citations.map(({ score: _score, ...rest }) => rest));
    expect(parseCitations('no citations here\n[x] nope')).toEqual([]);
  });
});

describe('binary detection', () => {
  it('by extension and by a NUL byte in the first 8 KiB', () => {
    expect(hasBinaryExtension('x/photo.PNG')).toBe(true);
    expect(hasBinaryExtension('notes.md')).toBe(false);
    expect(looksBinary(Buffer.from([0x41, 0x00, 0x42]))).toBe(true);
    expect(looksBinary(Buffer.from('plain text'))).toBe(false);
    const late = Buffer.concat([Buffer.alloc(9000, 0x41), Buffer.from([0])]);
    expect(looksBinary(late)).toBe(false);
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
