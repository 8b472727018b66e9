/**
 * Memory under `--auth jwt`: a call's memory user is the token's `sub`; a body `userId` naming
 * another user is refused (404, as another user's memory routes are); admins may name any user.
 */
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { HashedEmbedder } from '../../src/memory/hashedEmbedder.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { createApp } from '../../src/server/app.js';
import { jwtAuthenticator } from '../../src/server/auth/jwt.js';
import { createRegistry } from '../../src/server/registry.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

const SECRET = 'memory-test-secret-of-at-least-32-chars';

async function token(sub: string, scope?: string): Promise<string> {
  return new SignJWT(scope ? { scope } : {})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));
}

function app() {
  const model = new ScriptedModel(() => 'ok', { name: 'm', repeatLast: true });
  const agency = new Agency({
    name: 'mem',
    entryPoints: [new Agent({ name: 'A', instructions: 'Help.', model })],
    threads: new ThreadManager({ store: new MemoryStore() }),
    memory: { embedder: new HashedEmbedder(), recall: {} },
  });
  const server = createApp({
    registry: createRegistry({ agencies: [agency] }),
    authenticate: jwtAuthenticator({ secret: SECRET }),
  });
  const as = (bearer: string) => ({
    post: (url: string, body: unknown) =>
      server.request(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    get: (url: string) => server.request(url, { headers: { authorization: `Bearer ${bearer}` } }),
  });
  return { agency, as };
}

describe('memory user from the signed-in identity', () => {
  it('uses the token sub, refuses another user, and lets admins name any', async () => {
    const { agency, as } = app();
    const alice = as(await token('alice'));
    const admin = as(await token('root', 'colloquy:admin'));

    const own = await alice.post('/agencies/mem/responses', { message: 'I like teal' });
    expect(own.status).toBe(200);
    const records = await agency.memory!.backend.list({ userId: 'alice', agency: 'mem' });
    expect(records.map((r) => r.text)).toEqual(['I like teal', 'ok']);

    const named = await alice.post('/agencies/mem/responses', { message: 'x', userId: 'alice' });
    expect(named.status).toBe(200);
    const other = await alice.post('/agencies/mem/responses', { message: 'x', userId: 'bob' });
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: { message: string } }).error.message).toContain(
      'Memory of user "bob"',
    );
    expect(await agency.memory!.backend.list({ userId: 'bob' })).toEqual([]);
    const streamed = await alice.post('/agencies/mem/responses/stream', {
      message: 'x',
      userId: 'bob',
    });
    expect(streamed.status).toBe(404);

    const forBob = await admin.post('/agencies/mem/responses', {
      message: 'I like red',
      userId: 'bob',
    });
    expect(forBob.status).toBe(200);
    expect((await agency.memory!.backend.list({ userId: 'bob' })).map((r) => r.text)).toContain(
      'I like red',
    );
    expect(await agency.memory!.backend.list({ userId: 'root' })).toEqual([]);

    expect((await alice.get('/memory/mem/users/alice')).status).toBe(200);
    expect((await alice.get('/memory/mem/users/bob')).status).toBe(404);
  });
});
