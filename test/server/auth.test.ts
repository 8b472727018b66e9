import { describe, expect, it } from 'vitest';
import { assertSafeListen, isLoopbackHost, tokensEqual } from '../../src/server/auth.js';
import { createRegistry } from '../../src/server/registry.js';
import { startServer } from '../../src/server/serve.js';
import { json, listen, post } from './helpers.js';

describe('bearer auth', () => {
  it('answers 401 without a token and with a wrong one, on every route but /health', async () => {
    const server = await listen({}, { apiKey: 'sekret-key' });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    for (const path of [
      '/agencies',
      '/agencies/demo',
      '/v1/models',
      '/runs/x',
      '/threads/x',
      '/nowhere',
    ]) {
      const none = await fetch(`${server.url}${path}`);
      expect({ path, status: none.status }).toEqual({ path, status: 401 });
      expect(none.headers.get('www-authenticate')).toContain('Bearer');
      expect((await json(none)).error.code).toBe('UNAUTHORIZED');
      const wrong = await fetch(`${server.url}${path}`, {
        headers: { authorization: 'Bearer sekret-kez' },
      });
      expect({ path, status: wrong.status }).toEqual({ path, status: 401 });
      await wrong.body?.cancel();
    }
    const odd = await fetch(`${server.url}/agencies`, {
      headers: { authorization: 'Basic c2Vrcm V0' },
    });
    // RFC 6750: a header that is not a bearer credential is a malformed request (400).
    expect(odd.status).toBe(400);
    expect(odd.headers.get('www-authenticate')).toContain('invalid_request');
    expect((await json(odd)).error.message).toContain('Authorization: Bearer <key>');
    const denied = await post(
      `${server.url}/agencies/demo/responses`,
      { message: 'hi' },
      { authorization: 'Bearer nope' },
    );
    expect(denied.status).toBe(401);
    await denied.body?.cancel();
    const ok = await post(
      `${server.url}/agencies/demo/responses`,
      { message: 'hi' },
      { authorization: 'Bearer sekret-key' },
    );
    expect(ok.status).toBe(200);
    expect((await json(ok)).finalOutput).toContain('brief on hi');
  });

  it('reads the key from COLLOQUY_API_KEY when none is passed', async () => {
    const server = await listen({}, { env: { COLLOQUY_API_KEY: 'from-env' } });
    expect((await fetch(`${server.url}/agencies`)).status).toBe(401);
    expect(
      (await fetch(`${server.url}/agencies`, { headers: { authorization: 'bearer from-env' } }))
        .status,
    ).toBe(200);
  });

  it('compares tokens in constant time over digests of equal length', () => {
    expect(tokensEqual('abc', 'abc')).toBe(true);
    expect(tokensEqual('abc', 'abcd')).toBe(false);
    expect(tokensEqual('', 'abc')).toBe(false);
  });
});

describe('listening safely', () => {
  it('knows loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect({ host, loopback: isLoopbackHost(host) }).toEqual({ host, loopback: true });
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'example.com', '10.0.0.1'])
      expect({ host, loopback: isLoopbackHost(host) }).toEqual({ host, loopback: false });
  });

  it('refuses a non-loopback host without an API key, with the fix in the message', async () => {
    expect(() => assertSafeListen('0.0.0.0', undefined)).toThrow(
      /Refusing to listen on host "0.0.0.0" without an API key.*--api-key/,
    );
    expect(() => assertSafeListen('0.0.0.0', '  ')).toThrow(/API key is empty/);
    expect(() => assertSafeListen('0.0.0.0', 'key')).not.toThrow();
    expect(() => assertSafeListen('127.0.0.1', undefined)).not.toThrow();
    const registry = createRegistry();
    await expect(
      startServer({ host: '0.0.0.0', port: 0, registry, handleSignals: false, env: {} }),
    ).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('COLLOQUY_API_KEY'),
    });
    await registry.close();
  });
});
