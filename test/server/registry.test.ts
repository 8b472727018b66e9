import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import { MemoryStore } from '../../src/stores/memory.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { loadRegistry, readConfig, resolveAgencyModule } from '../../src/server/registry.js';
import { tempDir } from './helpers.js';

const project = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'project');

describe('loadRegistry', () => {
  it("serves the agencies the config's module exports (not the fallback ones) and the ensembles dir", async () => {
    const fallback = vi.fn(() => [createDemoAgency()]);
    const registry = await loadRegistry({
      config: path.join(project, 'colloquy.yaml'),
      fallbackAgencies: fallback,
    });
    try {
      expect(fallback).not.toHaveBeenCalled();
      expect([...registry.agencies.keys()]).toEqual(['support', 'helpdesk']);
      expect(await registry.ensembles.names()).toEqual(['hello']);
      const reply = await registry.agencies.get('helpdesk')!.getResponse('hi');
      expect(reply.finalOutput).toBe('helpdesk: hi');
      expect(registry.runs.store.kind).toBe('memory');
    } finally {
      await registry.close();
    }
  });

  it('reads a config given as a directory', async () => {
    const registry = await loadRegistry({ config: project });
    expect([...registry.agencies.keys()]).toEqual(['support', 'helpdesk']);
    await registry.close();
  });

  it('serves no agency by default when the config names none: no demo is hard-wired', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'colloquy.yaml'), 'store: memory\n');
    const registry = await loadRegistry({ config: dir });
    expect([...registry.agencies.keys()]).toEqual([]);
    await registry.close();
  });

  it("builds the fallback agencies on the registry's store when the config names none", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'colloquy.yaml'), 'store: memory\n');
    const store = new MemoryStore();
    let given: ThreadStore | undefined;
    const registry = await loadRegistry({
      config: dir,
      store,
      fallbackAgencies: (s) => {
        given = s;
        return [createDemoAgency({ threads: new ThreadManager({ store: s }) })];
      },
    });
    try {
      expect(given).toBe(store);
      expect([...registry.agencies.keys()]).toEqual(['demo']);
      await registry.agencies.get('demo')!.getResponse('Write about tides', { chatId: 'c1' });
      expect((await store.listThreads({ chatId: 'c1' })).length).toBeGreaterThan(0);
    } finally {
      await registry.close();
    }
  });

  it('explains a missing config file, module, or a module without agencies', async () => {
    await expect(readConfig(path.join(project, 'missing.yaml'))).rejects.toThrow(
      /does not exist.*--config/,
    );
    expect(() => resolveAgencyModule('nowhere', project)).toThrow(
      /names no module.*exports Agency instances/,
    );
    const dir = tempDir();
    writeFileSync(path.join(dir, 'empty.mjs'), 'export const x = 1;\n');
    writeFileSync(path.join(dir, 'colloquy.yaml'), 'store: memory\nagencies: empty.mjs\n');
    await expect(loadRegistry({ config: dir })).rejects.toThrow(/exports no Agency/);
    writeFileSync(path.join(dir, 'broken.mjs'), 'export default (;\n');
    writeFileSync(path.join(dir, 'colloquy.yaml'), 'store: memory\nagencies: broken.mjs\n');
    await expect(loadRegistry({ config: dir })).rejects.toThrow(
      /Could not import the agencies module/,
    );
  });
});
