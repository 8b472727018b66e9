import { describe, expect, it } from 'vitest';
import { echoAgency, json, listen, post } from '../helpers.js';

describe('trace routes', () => {
  it('lists the traces of a chat newest first and returns one with its span tree', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    for (const message of ['one', 'two'])
      expect(
        (await post(`${server.url}/agencies/echo/responses`, { message, chatId: 'c1' })).status,
      ).toBe(200);
    await post(`${server.url}/agencies/echo/responses`, { message: 'x', chatId: 'c2' });

    const list = await json(await fetch(`${server.url}/traces?chatId=c1`));
    expect(list.traces).toHaveLength(2);
    const [newest, older] = list.traces;
    expect(newest.startedAt >= older.startedAt).toBe(true);
    expect(newest).toMatchObject({
      name: 'agency echo',
      chatId: 'c1',
      agency: 'echo',
      spanCount: 6,
    });
    expect(newest.runId).toMatch(/^run_/);
    expect(newest.usage.totalTokens).toBe(45);

    const limited = await json(await fetch(`${server.url}/traces?limit=1`));
    expect(limited.traces).toHaveLength(1);

    const one = await json(await fetch(`${server.url}/traces/${newest.traceId}`));
    expect(one.trace.traceId).toBe(newest.traceId);
    const kinds = one.spans.map((s: { kind: string }) => s.kind);
    expect(kinds.filter((k: string) => k === 'generation')).toHaveLength(3);
    const helper = one.spans.find((s: { name: string }) => s.name === 'Helper');
    expect(helper.attributes).toMatchObject({ agent: 'Helper', caller: 'Front', depth: 1 });
    const send = one.spans.find((s: { spanId: string }) => s.spanId === helper.parentId);
    expect(send.kind).toBe('send_message');
  });

  it('answers 404 for an unknown trace and 400 for a bad limit', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    const missing = await fetch(`${server.url}/traces/trace_nope`);
    expect(missing.status).toBe(404);
    expect((await json(missing)).error.code).toBe('TRACE_NOT_FOUND');
    expect((await fetch(`${server.url}/traces?limit=0`)).status).toBe(400);
  });
});
