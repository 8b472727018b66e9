/**
 * Ensemble runs started by a signed-in user over HTTP (`EnsembleRuns`, under the request's
 * principal) recall and remember as that user: `memory:` in the YAML works for server runs too.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { lastUserText } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { withPrincipal } from '../../src/server/auth/principal.js';
import { DirectoryEnsembleCatalog } from '../../src/server/ensembleCatalog.js';
import { EnsembleRuns } from '../../src/server/ensembleRuns.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { recalledIn } from '../../examples/memory/remember.js';

const YAML = `name: helper
memory:
  embedder: hashed
  recall: { top_k: 3 }
agents:
  - name: assistant
    model_profile: p
    system_prompt: Help the user.
`;

describe('ensemble runs of a signed-in user', () => {
  it('recall that user’s earlier runs and never another user’s', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ens-user-'));
    writeFileSync(path.join(dir, 'helper.yaml'), YAML);
    const model = new ScriptedModel((request) => `Noted: ${lastUserText(request).slice(0, 20)}`, {
      name: 'm',
      repeatLast: true,
    });
    const runs = new EnsembleRuns({
      store: new MemoryStore(),
      catalog: new DirectoryEnsembleCatalog({ dir }),
      createModel: () => model,
    });
    const runAs = async (userId: string, input: string) => {
      const { runId } = await withPrincipal({ userId, admin: false }, () =>
        runs.start('helper', { input }),
      );
      await vi.waitFor(async () => expect((await runs.state(runId))?.status).toBe('finished'), {
        timeout: 10_000,
      });
      return model.calls.at(-1)!.request;
    };

    await runAs('u1', 'My favourite colour is teal');
    expect(recalledIn(await runAs('u1', 'Which colour is my favourite?'))).toContain('teal');
    expect(recalledIn(await runAs('u2', 'Which colour is my favourite?')) ?? '').not.toContain(
      'teal',
    );
    await runs.close();
  });
});
