import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SerializationError, StoreError } from '../../src/errors.js';
import {
  FILE_INDEX_SCHEMA_VERSION,
  loadIndexFile,
  readOptionalFile,
  saveIndexFile,
} from '../../src/files/indexFile.js';
import type { IndexFileData } from '../../src/files/indexFile.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'colloquy-index-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const data = (): IndexFileData => ({
  schemaVersion: FILE_INDEX_SCHEMA_VERSION,
  folder: '/docs',
  chunkLines: 40,
  chunkOverlap: 10,
  files: { 'a.md': { size: 3, mtimeMs: 1, sha256: 'ab', chunks: 1 } },
  index: { documentCount: 1 },
});

describe('index files', () => {
  it('round-trip through save and load, creating the directory', async () => {
    const file = path.join(dir, 'nested', 'index.json');
    await saveIndexFile(file, data());
    expect(await loadIndexFile(file)).toEqual(data());
  });

  it('load as null when missing, or when a path component is a file', async () => {
    expect(await loadIndexFile(path.join(dir, 'absent.json'))).toBeNull();
    writeFileSync(path.join(dir, 'plain'), 'x');
    expect(await loadIndexFile(path.join(dir, 'plain', 'index.json'))).toBeNull();
  });

  it('name the file and say to delete it when it is not JSON', async () => {
    const file = path.join(dir, 'index.json');
    writeFileSync(file, '{"schemaVersion":');
    const error = await loadIndexFile(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SerializationError);
    expect((error as Error).message).toBe(
      `The files index "${file}" is unreadable (it is not valid JSON). Delete it; it is rebuilt from the folder on the next search.`,
    );
  });

  it('refuse another schemaVersion or a bad entry, with the same fix', async () => {
    const file = path.join(dir, 'index.json');
    writeFileSync(file, JSON.stringify({ ...data(), schemaVersion: 2 }));
    await expect(loadIndexFile(file)).rejects.toThrow(/is unreadable \(.*\)\. Delete it;/);
    writeFileSync(
      file,
      JSON.stringify({
        ...data(),
        files: { 'a.md': { size: 1, mtimeMs: 1, sha256: '', chunks: -1 } },
      }),
    );
    await expect(loadIndexFile(file)).rejects.toMatchObject({ code: 'SERIALIZATION_ERROR' });
  });

  it('refuse to save data that does not fit the schema, writing nothing', async () => {
    const file = path.join(dir, 'index.json');
    await expect(
      saveIndexFile(file, { ...data(), chunkLines: 1.5 } as IndexFileData),
    ).rejects.toThrow();
    expect(await loadIndexFile(file)).toBeNull();
  });

  it('say how to fix an index directory that cannot be written', async () => {
    const blocker = path.join(dir, 'blocker');
    writeFileSync(blocker, 'a file');
    const error = await saveIndexFile(path.join(blocker, 'index.json'), data()).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toContain(
      `Could not write the files index "${path.join(blocker, 'index.json')}"`,
    );
    expect((error as Error).message).toContain('point fileSearch.indexDir somewhere that is');
  });

  it('replace an old index whole', async () => {
    const file = path.join(dir, 'index.json');
    await saveIndexFile(file, data());
    await saveIndexFile(file, { ...data(), files: {} });
    expect(JSON.parse(readFileSync(file, 'utf8')).files).toEqual({});
  });
});

describe('readOptionalFile', () => {
  it('reads text, and null for a missing file', async () => {
    const file = path.join(dir, 'manifest.json');
    expect(await readOptionalFile(file, 'the manifest')).toBeNull();
    writeFileSync(file, 'text');
    expect(await readOptionalFile(file, 'the manifest')).toBe('text');
  });

  it('names what it read when the path is a directory', async () => {
    mkdirSync(path.join(dir, 'folder'));
    await expect(readOptionalFile(path.join(dir, 'folder'), 'the manifest')).rejects.toThrow(
      new RegExp(`^Could not read the manifest ".*folder": .*EISDIR.*Check its permissions\\.$`),
    );
  });

  it.skipIf(process.getuid?.() === 0)(
    'names what it read when permission is denied (skipped as root, who reads any file)',
    async () => {
      const file = path.join(dir, 'locked.json');
      writeFileSync(file, '{}');
      chmodSync(file, 0);
      await expect(readOptionalFile(file, 'the files index')).rejects.toBeInstanceOf(StoreError);
    },
  );
});
