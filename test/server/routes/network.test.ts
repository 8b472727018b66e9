import { describe, expect, it } from 'vitest';
import { createDemoAgency } from '../../../src/demo/demoAgency.js';
import { json, listen, post } from '../helpers.js';

describe('GET /agencies/:name/network', () => {
  it('counts calls per edge from the stored traces and lists the declared flows never used', async () => {
    const server = await listen({ agencies: [createDemoAgency()] });
    await post(`${server.url}/agencies/demo/responses`, {
      message: 'Write a short brief about tides.',
    });
    let body: any;
    for (let i = 0; i < 100; i += 1) {
      body = await json(await fetch(`${server.url}/agencies/demo/network`));
      if (body.edges.length >= 3) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const edges = body.edges.map(
      (e: { from: string; to: string; calls: number }) => `${e.from}>${e.to}:${e.calls}`,
    );
    expect(edges.sort()).toEqual([
      'Coordinator>Researcher:1',
      'Coordinator>Writer:1',
      'Writer>Editor:1',
    ]);
    expect(body.edges[0].p50Ms).toEqual(expect.any(Number));
    expect(body.unused).toEqual([]);
    const empty = await json(
      await fetch(
        `${server.url}/agencies/demo/network?since=2000-01-01T00:00:00Z&until=2000-01-02T00:00:00Z`,
      ),
    );
    expect(empty.edges).toEqual([]);
    expect(empty.unused).toHaveLength(3);
  });
});
