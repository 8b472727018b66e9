import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadRegistry, readConfig, resolveAgencyModule } from '../../src/server/registry.js';
import { tempDir } from './helpers.js';

const project = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'project');

describe('loadRegistry', () => {
  it("serves the agencies the config's module exports, the demo agency and the ensembles dir", async () => {
    const registry = await loadRegistry({ config: path.join(project, 'colloquy.yaml') });
    try {
      expect([...registry.agencies.keys()]).toEqual(['support', 'helpdesk', 'demo']);
      expect(await registry.ensembles.names()).toEqual(['hello']);
      const reply = await registry.agencies.get('helpdesk')!.getResponse('hi');
      expect(reply.finalOutput).toBe('helpdesk: hi');
      expect(registry.runs.store.kind).toBe('memory');
    } finally {
      await registry.close();
    }
  });

  it('reads a config given as a directory, and leaves the demo agency out on request', async () => {
    const registry = await loadRegistry({ config: project, demo: false });
    expect([...registry.agencies.keys()]).toEqual(['support', 'helpdesk']);
    await registry.close();
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
