import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { savedRuns } from '../../../src/server/routes/ensembleDetail.js';
import type { ThreadRecord } from '../../../src/stores/types.js';
import { json, listen, post } from '../helpers.js';

const examples = fileURLToPath(new URL('../../../examples/ensembles', import.meta.url));

describe('GET /ensembles/:name', () => {
  it("describes an ensemble's agents and dependencies", async () => {
    const server = await listen({ ensembles: examples });
    const res = await fetch(`${server.url}/ensembles/parallel-dag`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ name: 'parallel-dag', ensembleName: 'parallel-dag' });
    expect(body.defaultTask).toContain('Colloquy runs ensembles');
    const merge = body.agents.find((a: { name: string }) => a.name === 'merge');
    expect(merge.kind).toBe('script');
    expect(merge.dependsOn.map((d: { agent: string }) => d.agent)).toEqual([
      'words',
      'chars',
      'lines',
    ]);
    expect(body.limits.max_total_turns).toBe(10);
    expect((await fetch(`${server.url}/ensembles/nope`)).status).toBe(404);
  });

  it('gives each agent its kind, and a dispatch agent its target as written', async () => {
    const server = await listen({ ensembles: examples });
    const body = await json(await fetch(`${server.url}/ensembles/llm-orc-features`));
    const kinds = Object.fromEntries(
      body.agents.map((a: { name: string; kind: string }) => [a.name, a.kind]),
    );
    expect(kinds).toMatchObject({ splitter: 'script', summary: 'ensemble', tally: 'dispatch' });
    expect(body.agents.find((a: { name: string }) => a.name === 'tally').dispatch).toBe(
      '${gate.part}',
    );
  });
});

describe('GET /runs', () => {
  it('lists saved runs with their status and completion reason', async () => {
    const server = await listen({ ensembles: examples });
    const started = await json(
      await post(`${server.url}/ensembles/parallel-dag/runs`, { runId: 'r-list' }),
    );
    expect(started.runId).toBe('r-list');
    let runs: Array<{ runId: string; status: string; completionReason?: string }> = [];
    for (let i = 0; i < 100; i++) {
      runs = (await json(await fetch(`${server.url}/runs?ensemble=parallel-dag`))).runs;
      if (runs[0]?.status === 'finished') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(runs).toEqual([
      expect.objectContaining({
        runId: 'r-list',
        ensemble: 'parallel-dag',
        status: 'finished',
        completionReason: 'completed',
        turnCount: 5,
      }),
    ]);
    expect((await json(await fetch(`${server.url}/runs?ensemble=other`))).runs).toEqual([]);
  });

  it('reads only workflow main threads', () => {
    const at = '2026-01-01T00:00:00Z';
    const base = { version: 1, forkedFrom: null, createdAt: at, updatedAt: at };
    const records: ThreadRecord[] = [
      {
        ...base,
        threadId: 'r1::main',
        chatId: 'r1',
        metadata: {
          kind: 'workflow',
          workflow: { data: { ensemble: 'e', status: 'running' }, conversation: { turn_count: 2 } },
        },
      },
      { ...base, threadId: 'c__A__USER', chatId: 'c', metadata: {} },
    ];
    expect(savedRuns(records)).toEqual([
      { runId: 'r1', ensemble: 'e', status: 'interrupted', turnCount: 2, updatedAt: at },
    ]);
  });
});
