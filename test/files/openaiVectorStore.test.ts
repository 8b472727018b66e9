import fs from 'node:fs';
import path from 'node:path';
import { Runner } from '@openai/agents-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agency/agent.js';
import { OpenAIVectorStoreSync } from '../../src/files/openaiVectorStore.js';
import { folderKey } from '../../src/files/options.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { captureLogger, countingReader, docsFolder, writeDoc } from './helpers.js';
import { startFakeOpenAI, type FakeOpenAI } from './openaiWire.js';

let api: FakeOpenAI;
beforeEach(async () => {
  api = await startFakeOpenAI();
});
afterEach(async () => {
  await api.close();
});

const uploads = () => api.requests.filter((r) => r === 'POST /v1/files').length;
const deletes = () => api.requests.filter((r) => r.startsWith('DELETE ')).length;

describe('fileSearch: openai', () => {
  it('uploads the folder once, reuses the store by name, re-uploads only changes and removes deleted files', async () => {
    const { folder, indexDir } = docsFolder({
      'a.md': 'Alpha.\n',
      'b.csv': 'k,v\n1,2\n',
      'logo.png': Buffer.from([1, 0, 2]),
    });
    const { logger, entries } = captureLogger();
    const first = await new OpenAIVectorStoreSync(folder, {
      client: api.client,
      indexDir,
      logger,
    }).sync();
    const storeName = `docs-${folderKey(folder).slice(0, 8)}`;
    expect([...api.stores.values()].map((s) => s.name)).toEqual([storeName]);
    expect(first).toMatchObject({
      uploaded: ['a.md', 'b.csv'],
      skipped: ['logo.png'],
      removed: [],
      unchanged: 0,
    });
    expect([...api.files.values()].map((f) => f.filename).sort()).toEqual(['a.md', 'b.csv.txt']);
    expect(entries.map((e) => e.path)).toEqual(['logo.png']);
    expect(fs.existsSync(path.join(indexDir, `${folderKey(folder)}.openai.json`))).toBe(true);

    // A new run: the store is found by name, nothing is read or uploaded.
    api.requests.length = 0;
    const spy = countingReader(folder);
    const again = await new OpenAIVectorStoreSync(folder, {
      client: api.client,
      indexDir,
      logger,
      readFile: spy.readFile,
    }).sync();
    expect(again).toMatchObject({
      vectorStoreId: first.vectorStoreId,
      uploaded: [],
      removed: [],
      unchanged: 2,
    });
    expect(api.requests).toEqual(['GET /v1/vector_stores']);
    expect(spy.reads).toEqual([]);

    writeDoc(folder, 'a.md', 'Alpha, revised.\n');
    fs.utimesSync(path.join(folder, 'a.md'), 3_000_000, 3_000_000);
    fs.rmSync(path.join(folder, 'b.csv'));
    api.requests.length = 0;
    const changed = await new OpenAIVectorStoreSync(folder, {
      client: api.client,
      indexDir,
      logger,
    }).sync();
    expect(changed).toMatchObject({ uploaded: ['a.md'], removed: ['b.csv'], unchanged: 0 });
    expect(uploads()).toBe(1);
    expect(deletes()).toBe(4); // b.csv and the old a.md: detached from the store, then deleted
    const store = api.stores.get(first.vectorStoreId)!;
    expect([...store.fileIds].map((id) => api.files.get(id)?.text)).toEqual(['Alpha, revised.\n']);
    expect(api.files.size).toBe(1);
  });

  it('starts a new store (and a new manifest) when the named store is gone', async () => {
    const { folder, indexDir } = docsFolder({ 'a.md': 'Alpha.\n' });
    const first = await new OpenAIVectorStoreSync(folder, { client: api.client, indexDir }).sync();
    api.stores.clear();
    const second = await new OpenAIVectorStoreSync(folder, { client: api.client, indexDir }).sync();
    expect(second.vectorStoreId).not.toBe(first.vectorStoreId);
    expect(second.uploaded).toEqual(['a.md']);
  });

  it('attaches the hosted file_search tool with the synced store before the first model call', async () => {
    const { folder, indexDir } = docsFolder({ 'a.md': 'Alpha.\n' });
    const model = new ScriptedModel(['Answer from the store.', 'Again.']);
    const agent = new Agent({
      name: 'Hosted',
      instructions: 'Use file search.',
      filesFolder: folder,
      fileSearch: { mode: 'openai', client: api.client, indexDir, maxResults: 3 },
      model,
    });
    expect(agent.files?.vectorStoreIds).toEqual([]);
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'What is alpha?');
    expect(result.finalOutput).toBe('Answer from the store.');
    const storeId = [...api.stores.keys()][0]!;
    expect(model.calls[0]!.request.tools).toEqual([
      expect.objectContaining({
        type: 'hosted_tool',
        name: 'file_search',
        providerData: expect.objectContaining({
          type: 'file_search',
          vector_store_ids: [storeId],
          max_num_results: 3,
        }),
      }),
    ]);
    expect(model.calls[0]!.request.systemInstructions).toBe('Use file search.');
    expect((await new Runner({ tracingDisabled: true }).run(agent, 'Again?')).finalOutput).toBe(
      'Again.',
    );
    expect(api.requests.filter((r) => r === 'GET /v1/vector_stores')).toHaveLength(1); // synced once per process
  });

  it('fails the run with the API error when the upload is rejected', async () => {
    const { folder, indexDir } = docsFolder({ 'a.md': 'Alpha.\n' });
    await api.close();
    const agent = new Agent({
      name: 'Offline',
      filesFolder: folder,
      fileSearch: { mode: 'openai', client: api.client, indexDir },
      model: new ScriptedModel(['x']),
    });
    await expect(new Runner({ tracingDisabled: true }).run(agent, 'hi')).rejects.toThrow(
      /Connection error/,
    );
    api = await startFakeOpenAI();
  });
});
