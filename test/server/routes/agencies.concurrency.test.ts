import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/stores/sqlite.js';
import type { ThreadItem } from '../../../src/stores/item.js';
import { chatItems, echoAgency, json, listen, post, tempDir, unmatchedCalls } from '../helpers.js';

function texts(items: readonly ThreadItem[]): string[] {
  return items.map(({ item }) => {
    if (item.type === 'function_call') return item.arguments;
    if (item.type === 'function_call_result') return JSON.stringify(item.output);
    return JSON.stringify((item as { content?: unknown }).content ?? '');
  });
}

describe('100 concurrent requests to one agency', () => {
  it('all succeed, and every chat holds only its own messages', async () => {
    const store = new SqliteStore({ path: path.join(tempDir(), 'threads.db') });
    const agency = echoAgency('echo', store, 20);
    let running = 0;
    let peak = 0;
    agency.hooks.onRunStart = ({ depth }) => {
      if (depth === 0) peak = Math.max(peak, ++running);
    };
    agency.hooks.onRunEnd = ({ depth }) => {
      if (depth === 0) running -= 1;
    };
    const server = await listen({ agencies: [agency], demo: false });
    const n = 100;
    const responses = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        post(`${server.url}/agencies/echo/responses`, {
          message: `token-${i}-end`,
          chatId: `conc-${i}`,
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array.from({ length: n }, () => 200));
    const results = await Promise.all(responses.map((r) => json(r)));
    expect(peak).toBeGreaterThan(1); // the calls overlapped
    results.forEach((result, i) => {
      expect(result.chatId).toBe(`conc-${i}`);
      expect(result.finalOutput).toBe(`echo: helper says token-${i}-end`);
    });
    for (let i = 0; i < n; i++) {
      const threads = await chatItems(store, `conc-${i}`);
      expect([...threads.keys()].sort()).toEqual([
        `conc-${i}__Front__Helper`,
        `conc-${i}__Front__USER`,
      ]);
      for (const [threadId, items] of threads) {
        expect(unmatchedCalls(items)).toEqual([]);
        const mentioned = texts(items).flatMap((text) =>
          [...text.matchAll(/token-(\d+)-end/g)].map((m) => Number(m[1])),
        );
        expect({ threadId, others: mentioned.filter((k) => k !== i) }).toEqual({
          threadId,
          others: [],
        });
        expect(mentioned.length).toBeGreaterThan(0);
      }
    }
    await store.close();
  });
});
