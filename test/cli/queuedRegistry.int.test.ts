// `queuedRegistry`, what `serve --queue` and `worker` load: the same agencies as `colloquy serve`
// (the demo agency when the config names none, unless --no-demo; a `.ts` module through the
// CLI's loader). Uses the test Redis of test/setup/services.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { queuedRegistry } from '../../src/cli/queuedRegistry.js';
import { redisSkip, redisUrl } from '../setup/serviceUrls.js';

const INDEX = fileURLToPath(new URL('../../src/index.ts', import.meta.url));
const MODELS = fileURLToPath(new URL('../../src/models.ts', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-queued-registry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The test Redis as the shared store (nothing is written: the registry only reads). */
const store = () => redisUrl()!;

describe.skipIf(Boolean(redisSkip()))('queuedRegistry (serve --queue, worker)', () => {
  it('offers the demo agency when the config names no agencies, and none with demo: false', async () => {
    const config = path.join(dir, 'none.yaml');
    writeFileSync(config, 'ensembles_dir: ensembles\n');
    const withDemo = await queuedRegistry({ store: store(), config });
    try {
      expect([...withDemo.registry.agencies.keys()]).toEqual(['demo']);
    } finally {
      await withDemo.registry.close();
      await withDemo.store.close();
    }
    const without = await queuedRegistry({ store: store(), config, demo: false });
    try {
      expect([...without.registry.agencies.keys()]).toEqual([]);
    } finally {
      await without.registry.close();
      await without.store.close();
    }
  });

  it('loads a .ts agencies module given as the worker argument', async () => {
    const module = path.join(dir, 'agencies.ts');
    writeFileSync(
      module,
      `import { Agency, Agent } from ${JSON.stringify(INDEX)};\n` +
        `import { ScriptedModel } from ${JSON.stringify(MODELS)};\n` +
        `export const support = new Agency({ name: 'support', entryPoints: [new Agent({ name: 'A', instructions: 'x', model: new ScriptedModel(() => 'ok') })] });\n`,
    );
    const loaded = await queuedRegistry({ store: store(), module });
    try {
      expect([...loaded.registry.agencies.keys()]).toEqual(['support']);
    } finally {
      await loaded.registry.close();
      await loaded.store.close();
    }
  });
  it('loads a module that exports only a createAgencies({ store }) factory', async () => {
    const module = path.join(dir, 'factory.ts');
    writeFileSync(
      module,
      `import { Agency, Agent, ThreadManager, type ThreadStore } from ${JSON.stringify(INDEX)};\n` +
        `import { ScriptedModel } from ${JSON.stringify(MODELS)};\n` +
        `export function createAgencies({ store }: { store: ThreadStore }): Agency[] {\n` +
        `  return [new Agency({ name: 'made', threads: new ThreadManager({ store }), entryPoints: [new Agent({ name: 'A', instructions: 'x', model: new ScriptedModel(() => 'ok') })] })];\n` +
        `}\n`,
    );
    const loaded = await queuedRegistry({ store: store(), module });
    try {
      expect([...loaded.registry.agencies.keys()]).toEqual(['made']);
    } finally {
      await loaded.registry.close();
      await loaded.store.close();
    }
  });
});
