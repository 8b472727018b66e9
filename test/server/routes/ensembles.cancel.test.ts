/**
 * `DELETE /runs/:id` on a server that runs ensembles in its own process: a running run stops,
 * keeps its finished turns and can be resumed; a run that is not running is a 409, an unknown
 * one a 404.
 */
import { describe, expect, it } from 'vitest';
import { json, listen, post, slowStepsEnsembles } from '../helpers.js';

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not reached');
}

const del = (url: string) => fetch(url, { method: 'DELETE' });

describe('DELETE /runs/:id (in process)', () => {
  it('stops a running run, which keeps its finished turns and resumes to the end', async () => {
    const server = await listen({ ensembles: slowStepsEnsembles(), demo: false });
    const started = await post(`${server.url}/ensembles/steps/runs`, { runId: 'run-cancel-1' });
    expect(started.status).toBe(202);
    // Cancel while `slow` runs, after `first` finished.
    await until(
      async () => (await json(await fetch(`${server.url}/runs/run-cancel-1`))).turnCount >= 1,
    );
    const cancelled = await del(`${server.url}/runs/run-cancel-1`);
    expect(cancelled.status).toBe(200);
    const body = await json(cancelled);
    expect(body).toMatchObject({ runId: 'run-cancel-1', cancelled: true, status: 'interrupted' });
    expect(body.error).toMatchObject({ code: 'ABORTED' });
    const state = await json(await fetch(`${server.url}/runs/run-cancel-1`));
    expect(state).toMatchObject({ status: 'interrupted', turnCount: 1 });

    // Not running any more: nothing to cancel.
    const again = await del(`${server.url}/runs/run-cancel-1`);
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ error: { code: 'RUN_NOT_RUNNING' } });

    // The finished turn is kept: resuming runs `slow` only (quickly this time) and finishes.
    process.env.SLOW_MS = '0';
    try {
      const resumed = await post(`${server.url}/runs/run-cancel-1/resume`, {});
      expect(resumed.status).toBe(202);
      await until(
        async () =>
          (await json(await fetch(`${server.url}/runs/run-cancel-1`))).status !== 'running',
      );
      const final = await json(await fetch(`${server.url}/runs/run-cancel-1`));
      expect(final.status).toBe('finished');
      expect(
        final.result.conversation_history.map((t: { agent_name: string }) => t.agent_name),
      ).toEqual(['first', 'slow']);
    } finally {
      delete process.env.SLOW_MS;
    }
    await server.close();
  });

  it('answers 404 for an unknown run', async () => {
    const server = await listen({ ensembles: slowStepsEnsembles(), demo: false });
    const missing = await del(`${server.url}/runs/no-such-run`);
    expect(missing.status).toBe(404);
    expect(await json(missing)).toMatchObject({ error: { code: 'RUN_NOT_FOUND' } });
    await server.close();
  });
});
