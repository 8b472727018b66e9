import { describe, expect, it } from 'vitest';
import { echoAgency, json, listen, post } from '../helpers.js';

describe('GET /traces titles', () => {
  it("titles every trace by its chat's first user message, not by its agency", async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    await post(`${server.url}/agencies/echo/responses`, { message: 'plan a trip', chatId: 'c1' });
    await post(`${server.url}/agencies/echo/responses`, { message: 'and hotels', chatId: 'c1' });
    await post(`${server.url}/agencies/echo/responses`, {
      message: `  book   ${'a very long flight '.repeat(8)}`,
      chatId: 'c2',
    });
    const { traces } = await json(await fetch(`${server.url}/traces`));
    expect(traces).toHaveLength(3);
    const byChat = (chatId: string) =>
      traces.filter((t: { chatId: string }) => t.chatId === chatId).map((t: any) => t.title);
    expect(byChat('c1')).toEqual(['plan a trip', 'plan a trip']);
    const [long] = byChat('c2');
    expect(long).toMatch(/^book a very long flight a very/);
    expect(long).toHaveLength(80);
    expect(long.endsWith('…')).toBe(true);
    for (const trace of traces) expect(trace.name).toBe('agency echo');
    const filtered = await json(await fetch(`${server.url}/traces?chatId=c2`));
    expect(filtered.traces.map((t: { title: string }) => t.title)).toEqual([long]);
  });
});
