import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { hostName, isAllowedHost } from '../../src/server/hostCheck.js';
import { createRegistry } from '../../src/server/registry.js';
import { listen } from './helpers.js';
import { rawRequest } from './rawRequest.js';

describe('hostName / isAllowedHost', () => {
  it('strips ports and brackets and accepts loopback names only by default', () => {
    expect(hostName('Evil.Example:8787')).toBe('evil.example');
    expect(hostName('[::1]:8787')).toBe('::1');
    expect(hostName('::1')).toBe('::1');
    for (const ok of ['localhost:1', '127.0.0.1:8787', '[::1]:80', 'app.localhost', '127.1.2.3'])
      expect(isAllowedHost(ok, []), ok).toBe(true);
    for (const bad of ['evil.example:8787', '10.0.0.1', '', 'localhost.evil.example', '0.0.0.0'])
      expect(isAllowedHost(bad, []), bad).toBe(false);
    expect(isAllowedHost('api.internal:8787', ['API.internal'])).toBe(true);
    expect(isAllowedHost('anything', ['*'])).toBe(true);
  });
});

describe('Host header check (DNS rebinding)', () => {
  it('refuses a foreign Host with 403 HOST_NOT_ALLOWED and serves loopback names', async () => {
    const server = await listen({});
    const rebound = await rawRequest(server.url, '/chats/c/threads', {
      headers: { host: `evil.example:${server.port}` },
    });
    expect(rebound.status).toBe(403);
    expect(rebound.json().error).toMatchObject({ code: 'HOST_NOT_ALLOWED' });
    expect(rebound.body).toContain('--allowed-host');
    const health = await rawRequest(server.url, '/health', { headers: { host: 'evil.example' } });
    expect(health.status).toBe(403);
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`]) {
      expect((await rawRequest(server.url, '/health', { headers: { host } })).status, host).toBe(
        200,
      );
    }
  });

  it('serves configured names (allowedHosts) and any name with "*"', async () => {
    const server = await listen({}, { allowedHosts: ['colloquy.internal'] });
    const named = await rawRequest(server.url, '/health', {
      headers: { host: `colloquy.internal:${server.port}` },
    });
    expect(named.status).toBe(200);
    expect(
      (await rawRequest(server.url, '/health', { headers: { host: 'other.internal' } })).status,
    ).toBe(403);
    const app = createApp({ registry: createRegistry(), allowedHosts: ['*'] });
    const res = await app.request('http://whatever.example/health');
    expect(res.status).toBe(200);
  });
});
