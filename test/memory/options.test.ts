/**
 * Memory configuration errors fail at construction, before any call, and name the fix: vectors
 * of another embedder, an unknown profile, a store that keeps no vectors, recall without an
 * embedder.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { HashedEmbedder } from '../../src/memory/hashedEmbedder.js';
import type { MemoryOptions } from '../../src/memory/options.js';
import { createProfileRegistry } from '../../src/models/profiles.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { JsonFileStore } from '../../src/stores/jsonFile.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

const agent = () =>
  new Agent({ name: 'A', instructions: 'Help.', model: new ScriptedModel(['ok']) });
const make = (store: ThreadStore, memory: MemoryOptions) =>
  new Agency({ entryPoints: [agent()], threads: new ThreadManager({ store }), memory });

describe('memory configuration errors', () => {
  it('refuses an embedder whose vectors differ from the stored ones, naming reembed', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'memory-')), 'c.db');
    const first = new SqliteStore({ path: file });
    const agency = make(first, { embedder: new HashedEmbedder(), recall: {} });
    await agency.getResponse('My favourite colour is teal', { userId: 'u1' });
    await first.close();
    const second = new SqliteStore({ path: file });
    try {
      expect(() =>
        make(second, { embedder: new HashedEmbedder({ dimensions: 64 }), recall: {} }),
      ).toThrow(
        /stored vectors are of hashed-bow-256 \(256 numbers\) but the embedder is hashed-bow-64 \(64\).*colloquy memory reembed/,
      );
      expect(() => make(second, { embedder: new HashedEmbedder(), recall: {} })).not.toThrow();
    } finally {
      await second.close();
    }
  });

  it('names an unknown profile, a store without vectors, and recall without an embedder', () => {
    const profiles = createProfileRegistry([
      { source: 'code', baseDir: '.', profiles: { chat: { model: 'm', provider: 'anthropic' } } },
    ]);
    expect(() => make(new MemoryStore(), { embedder: 'nope', profiles, recall: {} })).toThrow(
      /nope/,
    );
    expect(() => make(new MemoryStore(), { embedder: 'chat', profiles, recall: {} })).toThrow(
      /cannot embed.*provider openai, openai-compatible, ollama/,
    );
    expect(() => make(new MemoryStore(), { embedder: 'x', recall: {} })).toThrow(
      /no profiles were given/,
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'memory-json-'));
    expect(() =>
      make(new JsonFileStore({ dir }), { embedder: new HashedEmbedder(), recall: {} }),
    ).toThrow(/json\w* thread store keeps no vectors.*memory: \{ store \}/);
    expect(() => make(new MemoryStore(), { recall: {} })).toThrow(/recall needs an embedder/);
    expect(() =>
      make(new MemoryStore(), { compaction: { maxTokens: 10, summarizer: 'm' } }),
    ).toThrow(/maxTokens must be at least 64/);
  });
});
