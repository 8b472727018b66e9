import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDemoAgency } from '../../../src/demo/demoAgency.js';
import { runEval } from '../../../src/evals/run.js';
import { agencyTarget } from '../../../src/evals/targets.js';
import { json, listen, tempDir } from '../helpers.js';

const dataset = {
  file: 'tides.jsonl',
  cases: [
    {
      id: 'brief',
      input: 'Write a short brief about tides.',
      scorers: [{ type: 'contains' as const, value: ['tide'] }],
    },
    {
      id: 'zebra',
      input: 'Write a short brief about tides.',
      scorers: [{ type: 'contains' as const, value: ['zebra'] }],
      thresholds: { contains: 1 },
    },
  ],
};

describe('GET /evals', () => {
  it('lists the runs of the results folder and returns one run with each case’s chat', async () => {
    const dir = tempDir();
    const agency = createDemoAgency();
    const server = await listen({ agencies: [agency], demo: false }, { evalsDir: dir });
    expect(await json(await fetch(`${server.url}/evals`))).toEqual({ runs: [], unreadable: [] });

    const results = await runEval({
      dataset,
      target: agencyTarget(agency, { name: 'demo' }),
      resultsDir: dir,
    });
    await writeFile(path.join(dir, 'broken.json'), '{"format":"nope"}');
    const list = await json(await fetch(`${server.url}/evals`));
    expect(list.runs).toEqual([
      {
        runId: results.runId,
        dataset: 'tides.jsonl',
        target: 'agency demo',
        startedAt: results.startedAt,
        mean: 0.5,
        passed: false,
        cases: 2,
        passedCases: 1,
        failedCases: 1,
      },
    ]);
    expect(list.unreadable).toEqual([
      { runId: 'broken', error: expect.stringContaining('is not a colloquy-eval-results') },
    ]);
    expect(JSON.stringify(list.unreadable)).not.toContain(dir);

    const detail = await json(await fetch(`${server.url}/evals/${results.runId}`));
    const [brief, zebra] = detail.results.cases;
    expect(brief.scores[0]).toMatchObject({ scorer: 'contains', mean: 1, passed: true });
    expect(zebra.scores[0].reason).toContain('zebra');
    const chatId = brief.runs[0].chatId as string;
    expect(chatId).toMatch(/^eval_/);
    // The case's chat leads to its trace.
    let traces: Array<{ traceId: string }> = [];
    for (let i = 0; i < 200 && traces.length === 0; i += 1) {
      traces = (await json(await fetch(`${server.url}/traces?chatId=${chatId}`))).traces;
      if (traces.length === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(traces).toHaveLength(1);
  });

  it('refuses a run id that could leave the folder, and names an unknown one', async () => {
    const dir = tempDir();
    const server = await listen({ demo: false }, { evalsDir: dir });
    const bad = await fetch(`${server.url}/evals/..%2F..%2Fetc%2Fpasswd`);
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.message).toMatch(/letters, digits.*GET \/evals/);
    const dotted = await fetch(`${server.url}/evals/a.b`);
    expect(dotted.status).toBe(400);
    const missing = await fetch(`${server.url}/evals/eval_nothing`);
    expect(missing.status).toBe(404);
    expect((await json(missing)).error.message).toContain('List the eval runs with GET /evals');
  });
});
