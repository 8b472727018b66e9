import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { ConversationsStore } from '../../src/stores/conversations.js';
import { openStore } from '../../src/stores/openStore.js';
import { SqliteStore } from '../../src/stores/sqlite.js';

const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-open-conversations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { COLLOQUY_DB: path.join(dir, 'colloquy.db') };

describe('openStore conversations:', () => {
  it('opens a ConversationsStore on the base URL, its index beside the default store', async () => {
    const store = (await openStore(
      'conversations:https://res.openai.azure.com/openai/v1',
      env,
    )) as ConversationsStore;
    expect(store).toBeInstanceOf(ConversationsStore);
    expect(store.kind).toBe('conversations');
    expect(store.baseURL).toBe('https://res.openai.azure.com/openai/v1');
    expect((store.index as SqliteStore).path).toMatch(
      new RegExp(`^${dir}/conversations-[0-9a-f]{10}\\.db$`),
    );
    await store.close();
    const openai = (await openStore('conversations:openai', env)) as ConversationsStore;
    expect(openai.baseURL).toBe('https://api.openai.com/v1');
    expect((openai.index as SqliteStore).path).not.toBe((store.index as SqliteStore).path);
    await openai.close();
  });

  it('refuses a spec without a base URL, naming both forms', async () => {
    for (const spec of ['conversations:', 'conversations:api.openai.com/v1']) {
      const error = await openStore(spec, env).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/conversations:https:\/\/api\.openai\.com\/v1/);
    }
  });
});
