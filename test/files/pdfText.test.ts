import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPdf, pdfText } from '../../src/files/pdfText.js';

describe('isPdf', () => {
  it('goes by the extension, in any case', () => {
    expect(isPdf('docs/report.pdf')).toBe(true);
    expect(isPdf('REPORT.PDF')).toBe(true);
    expect(isPdf('report.pdf.txt')).toBe(false);
    expect(isPdf('pdf')).toBe(false);
  });
});

describe('pdfText', () => {
  it('rejects a PDF cut short', async () => {
    const bytes = readFileSync(path.resolve('test/fixtures/files/hello.pdf'));
    await expect(pdfText(bytes.subarray(0, 40))).rejects.toThrow();
  });

  it('does not modify the bytes it is given', async () => {
    const bytes = readFileSync(path.resolve('test/fixtures/files/hello.pdf'));
    const copy = Buffer.from(bytes);
    expect((await pdfText(bytes)).trim()).toBe('Tide tables for March');
    expect(bytes.equals(copy)).toBe(true);
    // A second read of the same buffer gives the same text (the buffer was not detached).
    expect((await pdfText(bytes)).trim()).toBe('Tide tables for March');
  });
});
