import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { createRegistry } from '../../src/server/registry.js';
import { findStudioDir, studioRoutes } from '../../src/server/studio.js';
import { tempDir } from './helpers.js';

/** A fake studio build: an index page and one asset. */
function fakeBuild(): string {
  const dir = tempDir();
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Studio</title>');
  writeFileSync(path.join(dir, 'assets', 'app-1.js'), 'console.log(1);');
  return dir;
}

describe('studioRoutes', () => {
  it('serves the page at /, /studio and /studio/, and its assets', async () => {
    const app = studioRoutes({ dir: fakeBuild() });
    for (const url of ['/', '/studio', '/studio/']) {
      const res = await app.request(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('<title>Studio</title>');
    }
    const asset = await app.request('/studio/assets/app-1.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(await asset.text()).toBe('console.log(1);');
    expect((await app.request('/studio/assets/missing.js')).status).toBe(404);
    expect((await app.request('/studio/assets/..%2findex.html')).status).toBe(404);
  });

  it('says how to build the studio when it is not built', async () => {
    const app = studioRoutes({ dir: null });
    const res = await app.request('/');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('npm run build:studio');
    expect((await app.request('/studio/assets/app-1.js')).status).toBe(404);
  });

  it('finds a build through COLLOQUY_STUDIO_DIR, else in the candidate directories', () => {
    const dir = fakeBuild();
    expect(findStudioDir({ COLLOQUY_STUDIO_DIR: dir })).toBe(dir);
    expect(findStudioDir({}, [tempDir(), dir])).toBe(dir);
    expect(findStudioDir({}, [tempDir()])).toBeUndefined();
  });
});

describe('the app serves the studio without the API key', () => {
  it('answers the page openly and the API only with the key', async () => {
    const registry = createRegistry();
    const app = createApp({ registry, apiKey: 'k' });
    const page = await app.request('/');
    expect([200, 404]).toContain(page.status); // 404 only when dist/studio is not built
    expect(page.headers.get('content-type')).toContain('text/html');
    expect((await app.request('/agencies')).status).toBe(401);
    const ok = await app.request('/agencies', { headers: { authorization: 'Bearer k' } });
    expect(ok.status).toBe(200);
    await registry.close();
  });

  it('serves the built studio from dist/studio (built by the test setup)', async () => {
    expect(findStudioDir()).toBeDefined();
    const registry = createRegistry();
    const res = await createApp({ registry }).request('/studio');
    expect(res.status).toBe(200);
    const html = await res.text();
    const asset = /src="(\/studio\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    expect((await createApp({ registry }).request(asset!)).status).toBe(200);
    await registry.close();
  });
});
