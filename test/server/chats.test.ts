/** ChatDirectory: which agency a chat belongs to, remembered for the newest chats, else asked of the stores. */
import { describe, expect, it } from 'vitest';
import type { Agency } from '../../src/agency/agency.js';
import { ChatDirectory } from '../../src/server/chats.js';

/** Agencies whose stores have no threads, counting how often they are asked. */
function agencies(names: string[]) {
  const asked = { count: 0 };
  const map = new Map<string, Agency>();
  for (const name of names) {
    const store = {
      listThreads: async () => {
        asked.count += 1;
        return [];
      },
    };
    map.set(name, { name, threads: { store } } as unknown as Agency);
  }
  return { map, asked };
}

describe('ChatDirectory', () => {
  it('knows the newest 10,000 chats at least without asking a store, the last agency to run each', async () => {
    const { map, asked } = agencies(['a', 'b']);
    const chats = new ChatDirectory(map);
    for (let i = 0; i < 25_000; i++) chats.remember(`chat-${i}`, i % 2 === 0 ? 'a' : 'b');
    chats.remember('chat-14000', 'b'); // remembered again (e.g. forked into): newest, another agency
    for (const i of [24_999, 20_000, 15_001]) {
      expect((await chats.agencyOf(`chat-${i}`)).name).toBe(i % 2 === 0 ? 'a' : 'b');
    }
    expect((await chats.agencyOf('chat-14000')).name).toBe('b');
    expect(asked.count).toBe(0);
    // The oldest are forgotten: the stores are asked, and none has the chat.
    await expect(chats.agencyOf('chat-0')).rejects.toMatchObject({ code: 'CHAT_NOT_FOUND' });
    expect(asked.count).toBe(2);
  });

  it('a preferred agency wins; an unknown one is a 404 naming the served ones', async () => {
    const { map } = agencies(['a', 'b']);
    const chats = new ChatDirectory(map);
    chats.remember('c', 'a');
    expect((await chats.agencyOf('c', 'b')).name).toBe('b');
    await expect(chats.agencyOf('c', 'zz')).rejects.toMatchObject({ code: 'AGENCY_NOT_FOUND' });
  });
});
