// startServer passes fallbackAgencies to loadRegistry: served only when the config names none.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/serve.js';
import { echoAgency, json, tempDir } from './helpers.js';

async function serveProject(yaml: string, withFallback: boolean) {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'colloquy.yaml'), yaml);
  const server = await startServer({
    port: 0,
    handleSignals: false,
    env: {},
    config: dir,
    ...(withFallback ? { fallbackAgencies: (store) => [echoAgency('fallback', store)] } : {}),
  });
  try {
    return await json(await fetch(`${server.url}/health`));
  } finally {
    await server.close();
  }
}

describe('startServer with fallbackAgencies', () => {
  it('serves the fallback agencies when the config names none', async () => {
    expect(await serveProject('store: memory\n', true)).toEqual({
      status: 'ok',
      agencies: ['fallback'],
    });
  });

  it('serves nothing without a fallback: the library hard-wires no agency', async () => {
    expect(await serveProject('store: memory\n', false)).toEqual({ status: 'ok', agencies: [] });
  });
});
