/** A files folder's PDFs are searchable, and `.gitignore` rules (at the root and below) are respected. */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FileIndex } from '../../src/files/localIndex.js';
import { isPdf, pdfText } from '../../src/files/pdfText.js';
import { scanFolder } from '../../src/files/scan.js';
import { docsFolder } from './helpers.js';

const PDF = fs.readFileSync(fileURLToPath(new URL('../fixtures/files/hello.pdf', import.meta.url)));

describe('PDFs in a files folder', () => {
  it('extracts their text', async () => {
    expect(isPdf('a/B.PDF')).toBe(true);
    expect(isPdf('a.txt')).toBe(false);
    expect(await pdfText(PDF)).toContain('Tide tables for March');
    await expect(pdfText(Buffer.from('not a pdf'))).rejects.toThrow();
  });

  it('indexes and finds a PDF, and skips a broken one', async () => {
    const { folder, indexDir } = docsFolder({
      'tides.pdf': PDF,
      'broken.pdf': Buffer.from('%PDF-1.4 garbage'),
      'notes.txt': 'nothing here\n',
    });
    const index = new FileIndex(folder, { indexDir });
    const report = await index.update();
    expect(report.added.sort()).toEqual(['notes.txt', 'tides.pdf']);
    const [hit] = await index.search('tide tables');
    expect(hit).toMatchObject({ path: 'tides.pdf' });
  });
});

describe('.gitignore in a files folder', () => {
  it('leaves out what the root and nested .gitignore files ignore', async () => {
    const { folder } = docsFolder({
      '.gitignore': 'build/\n*.log\n!keep.log\n',
      'build/out.txt': 'generated',
      'app.log': 'noise',
      'keep.log': 'kept',
      'guide.md': 'guide',
      'sub/.gitignore': 'secret.txt\n',
      'sub/secret.txt': 'hidden',
      'sub/open.txt': 'visible',
      'other/secret.txt': 'not ignored here',
    });
    const paths = (await scanFolder(folder, 'test')).map((file) => file.path);
    expect(paths).toEqual(['guide.md', 'keep.log', 'other/secret.txt', 'sub/open.txt']);
  });
});
