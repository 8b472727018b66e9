import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/app.js';
import { createRegistry } from '../../../src/server/registry.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { echoAgency, json } from '../helpers.js';

const jsonType = { 'content-type': 'application/json' };

describe('ill-formed ids over HTTP', () => {
  it('answers a chat id with a lone surrogate with 400, not 500, and stores nothing', async () => {
    const store = new MemoryStore();
    const app = createApp({ registry: createRegistry({ agencies: [echoAgency('echo', store)] }) });
    for (const chatId of ['\udbff-x', '\udfff-x', 'a\ud800']) {
      const res = await app.request('/agencies/echo/responses', {
        method: 'POST',
        headers: jsonType,
        // JSON.stringify escapes the lone surrogate as \udbff, as a client would send it.
        body: JSON.stringify({ message: 'hi', chatId }),
      });
      expect(res.status, chatId).toBe(400);
      const { error } = await json(res);
      expect(error).toMatchObject({ code: 'INVALID_BODY', path: 'chatId' });
      expect(error.message).toMatch(/lone UTF-16 surrogate/);
    }
    expect(await store.listThreads()).toEqual([]);
    const fine = await app.request('/agencies/echo/responses', {
      method: 'POST',
      headers: jsonType,
      body: JSON.stringify({ message: 'hi', chatId: '\ufffd-x' }),
    });
    expect(fine.status).toBe(200);
  });
});
