import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, listen, post, tempDir, writeScript } from '../helpers.js';

/** An ensembles dir with `pair`: two script agents, b after a. */
function pairDir(): string {
  const dir = tempDir();
  const a = writeScript(dir, 'a.js', `reply({ success: true, data: { from: 'a' } });`);
  const b = writeScript(dir, 'b.js', `reply({ success: true, data: { from: 'b' } });`);
  writeFileSync(
    path.join(dir, 'pair.yaml'),
    `name: pair\nagents:\n  - name: a\n    script: ${a}\n  - name: b\n    script: ${b}\n    depends_on: [a]\n`,
  );
  return dir;
}

describe('ensemble runs over HTTP are traced', () => {
  it('a run started with POST /ensembles/:name/runs is one trace, found by its run id', async () => {
    const server = await listen({ ensembles: pairDir(), demo: false });
    try {
      const started = await post(`${server.url}/ensembles/pair/runs`, { runId: 'run-traced-1' });
      expect(started.status).toBe(202);
      let traces: Array<{ traceId: string; runId?: string; name: string }> = [];
      for (let i = 0; i < 200 && traces.length === 0; i++) {
        const state = await json(await fetch(`${server.url}/runs/run-traced-1`));
        if (state.status !== 'running')
          traces = (await json(await fetch(`${server.url}/traces?runId=run-traced-1`))).traces;
        if (traces.length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(traces).toHaveLength(1);
      expect(traces[0]).toMatchObject({ runId: 'run-traced-1', name: 'ensemble pair' });
      const { spans } = await json(await fetch(`${server.url}/traces/${traces[0]!.traceId}`));
      const agents = (spans as Array<{ kind: string; name: string }>)
        .filter((span) => span.kind === 'ensemble_agent')
        .map((span) => span.name);
      expect(agents.sort()).toEqual(['a', 'b']);
    } finally {
      await server.close();
    }
  });
});
