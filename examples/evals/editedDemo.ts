/**
 * The demo agency with one change: the Editor's instructions. A case captured from the demo
 * misses its cassette on this agency (the Editor's request is not the recorded one), and
 * `colloquy eval run` says which lines changed; `--live` runs it on the agents' own models.
 *
 *   npx colloquy eval run examples/evals/demo.jsonl --agency examples/evals/editedDemo.ts
 *
 * The default export is a factory: evals call it once per case with a fresh store and, when the
 * case replays a cassette, the model every agent should use.
 */
import type { Model } from '@openai/agents-core';
import { Agency } from '../../src/agency/agency.js';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import type { AgencyFactoryOptions } from '../../src/evals/targets.js';

/** The Editor's new instructions. */
export const EDITED_INSTRUCTIONS =
  'Return the draft as one tight paragraph. Answer with the text only.';

export default function editedDemo({ model, threads }: AgencyFactoryOptions): Agency {
  const base = createDemoAgency({ threads, ...(model ? { model: () => model as Model } : {}) });
  const agents = new Map(
    [...base.agents].map(([name, agent]) => [
      name,
      name === 'Editor' ? agent.clone({ instructions: EDITED_INSTRUCTIONS }) : agent,
    ]),
  );
  return new Agency({
    name: 'demo',
    entryPoints: base.entryPoints.map((name) => agents.get(name)!),
    communicationFlows: base.flows.map(([from, to]) => [agents.get(from)!, agents.get(to)!]),
    threads,
  });
}
