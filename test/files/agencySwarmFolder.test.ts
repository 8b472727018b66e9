import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { resolveSwarmFolder, swarmFileId } from '../../src/files/agencySwarmFolder.js';
import { FileIndex } from '../../src/files/localIndex.js';
import { OpenAIVectorStoreSync } from '../../src/files/openaiVectorStore.js';
import { captureLogger, countingReader, tempDir, writeDoc } from './helpers.js';
import { startFakeOpenAI, type FakeOpenAI } from './openaiWire.js';

const VS = 'vs_Abc123Def456Ghi789';
const FILE = 'file-Q1w2E3r4T5y6U7i8O9';

let api: FakeOpenAI;
beforeEach(async () => {
  api = await startFakeOpenAI();
});
afterEach(() => api.close());

/** A project as agency-swarm v1 left it: `docs` renamed `docs_vs_<id>`, one file uploaded and renamed. */
function swarmProject(): { root: string; renamed: string; indexDir: string } {
  const root = tempDir();
  const renamed = path.join(root, `docs_${VS}`);
  writeDoc(renamed, `manual_${FILE}.md`, 'The loom needs oil every week.\n');
  writeDoc(renamed, 'added-later.md', 'Warranty: two years.\n');
  api.stores.set(VS, { name: 'docs', fileIds: new Set([FILE]) });
  api.files.set(FILE, { filename: 'manual.md', text: 'The loom needs oil every week.\n' });
  return { root, renamed, indexDir: path.join(root, 'index') };
}

describe('agency-swarm files folders', () => {
  it('reads the vector store id from the folder name, or finds the renamed sibling', () => {
    const { root, renamed } = swarmProject();
    expect(path.basename(renamed)).toBe(`docs_${VS}`);
    expect(resolveSwarmFolder(renamed, 'A')).toEqual({ folder: renamed, vectorStoreId: VS });
    expect(resolveSwarmFolder(path.join(root, 'docs'), 'A')).toEqual({
      folder: renamed,
      vectorStoreId: VS,
    });
    fs.mkdirSync(path.join(root, 'plain'));
    expect(resolveSwarmFolder(path.join(root, 'plain'), 'A')).toEqual({
      folder: path.join(root, 'plain'),
      vectorStoreId: null,
    });
    expect(resolveSwarmFolder(path.join(root, 'missing'), 'A').vectorStoreId).toBeNull();
    fs.mkdirSync(path.join(root, 'docs_vs_Zzz123Zzz456Zzz789'));
    expect(() => resolveSwarmFolder(path.join(root, 'docs'), 'Agent "R"')).toThrow(ConfigError);
    expect(() => resolveSwarmFolder(path.join(root, 'docs'), 'Agent "R"')).toThrow(
      /agency-swarm left several renamed copies of it: docs_vs_Abc123.*docs_vs_Zzz123/,
    );
  });

  it('parses the file id an upload carries in its name', () => {
    expect(swarmFileId(`sub/report_${FILE}.pdf`)).toBe(FILE);
    expect(swarmFileId(`report_${FILE}`)).toBe(FILE);
    expect(swarmFileId('report.pdf')).toBeNull();
    expect(swarmFileId('report_file-short.pdf')).toBeNull();
    expect(swarmFileId(`report_${FILE}.draft.md`)).toBeNull();
  });

  it('openai mode reuses the vector store and the uploaded files, uploading only new ones', async () => {
    const { root, renamed, indexDir } = swarmProject();
    const { logger } = captureLogger();
    const sync = new OpenAIVectorStoreSync(path.join(root, 'docs'), {
      client: api.client,
      indexDir,
      logger,
    });
    expect(sync.folder).toBe(renamed);
    const first = await sync.sync();
    expect(first).toMatchObject({
      vectorStoreId: VS,
      reused: [`manual_${FILE}.md`],
      uploaded: ['added-later.md'],
      removed: [],
    });
    expect(api.requests.filter((r) => r.includes('vector_stores') && !r.includes(VS))).toEqual([]);
    expect(api.requests.filter((r) => r === 'POST /v1/files')).toHaveLength(1);
    expect([...api.stores.get(VS)!.fileIds]).toHaveLength(2);
    api.requests.length = 0;
    const spy = countingReader(renamed);
    const again = await new OpenAIVectorStoreSync(path.join(root, 'docs'), {
      client: api.client,
      indexDir,
      logger,
      readFile: spy.readFile,
    }).sync();
    expect(again).toMatchObject({ uploaded: [], reused: [], unchanged: 2 });
    expect(api.requests).toEqual([`GET /v1/vector_stores/${VS}`]);
  });

  it('fails with the fix when the named vector store does not exist', async () => {
    const { renamed, indexDir } = swarmProject();
    api.stores.delete(VS);
    const error = await new OpenAIVectorStoreSync(renamed, { client: api.client, indexDir })
      .sync()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      new RegExp(`named after vector store ${VS} .*rename the folder without "_${VS}"`),
    );
    expect(api.requests.filter((r) => r.startsWith('POST'))).toEqual([]);
  });

  it('local mode searches the renamed folder', async () => {
    const { root, indexDir } = swarmProject();
    const index = new FileIndex(path.join(root, 'docs'), { indexDir });
    const hits = await index.search('oil');
    expect(hits.map((h) => h.path)).toEqual([`manual_${FILE}.md`]);
  });
});
