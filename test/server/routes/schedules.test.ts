// The /schedules routes on a real server: checked bodies (errors name the field), schedules owned
// by their user (another user's reads as not found, admins see all), runs owned by the schedule's
// user, and the schedules: of colloquy.yaml checked at start.
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/server/auth/principal.js';
import type { ScheduleView } from '../../../src/server/schedules/types.js';
import { echoAgency, json, listen, testRegistry } from '../helpers.js';

const PRINCIPALS: Record<string, Principal> = {
  alice: { userId: 'alice', admin: false },
  bob: { userId: 'bob', admin: false },
  root: { userId: 'root', admin: true },
};

function authenticate(request: Request): Principal | null {
  const token = (request.headers.get('authorization') ?? '').replace(/^Bearer /, '');
  return PRINCIPALS[token] ?? null;
}

function as(url: string, user: string) {
  const headers = { authorization: `Bearer ${user}`, 'content-type': 'application/json' };
  return {
    get: (path: string) => fetch(`${url}${path}`, { headers }),
    post: (path: string, body: unknown) =>
      fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }),
    delete: (path: string) => fetch(`${url}${path}`, { method: 'DELETE', headers }),
  };
}

async function ids(response: Response): Promise<string[]> {
  return ((await json(response)) as { schedules: ScheduleView[] }).schedules.map((s) => s.id);
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 500; i += 1) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not reached');
}

describe('/schedules', () => {
  it('keeps each user to their own schedules; admins see all', async () => {
    const server = await listen({ agencies: [echoAgency('echo')], demo: false }, { authenticate });
    const alice = as(server.url, 'alice');
    const bob = as(server.url, 'bob');
    const root = as(server.url, 'root');
    const added = await alice.post('/schedules', {
      id: 'a1',
      every: '1h',
      agency: 'echo',
      message: 'report',
    });
    expect(added.status).toBe(201);
    expect(await json(added)).toMatchObject({ id: 'a1', user: 'alice', source: 'api' });
    expect(
      (await bob.post('/schedules', { every: '1h', agency: 'echo', message: 'b' })).status,
    ).toBe(201);
    const forAlice = await bob.post('/schedules', {
      every: '1h',
      agency: 'echo',
      message: 'x',
      user: 'alice',
    });
    expect(forAlice.status).toBe(400);
    expect(await json(forAlice)).toMatchObject({ error: { path: 'user' } });

    expect(await ids(await alice.get('/schedules'))).toEqual(['a1']);
    expect(await ids(await bob.get('/schedules'))).not.toContain('a1');
    expect(await ids(await root.get('/schedules'))).toHaveLength(2);

    const stolen = await bob.delete('/schedules/a1');
    expect(stolen.status).toBe(404);
    expect(await json(stolen)).toMatchObject({ error: { code: 'SCHEDULE_NOT_FOUND' } });
    expect((await alice.delete('/schedules/a1')).status).toBe(200);
    expect((await alice.delete('/schedules/a1')).status).toBe(404);
  });

  it('names the field of a bad schedule', async () => {
    const server = await listen({ agencies: [echoAgency('echo')], demo: false });
    const send = (body: unknown) => as(server.url, 'none').post('/schedules', body);
    const cases: Array<[unknown, string, number]> = [
      [{ every: '2s', cron: '* * * * *', agency: 'echo', message: 'm' }, 'cron', 400],
      [{ every: 'soon', agency: 'echo', message: 'm' }, 'every', 400],
      [{ every: '2s', agency: 'nope', message: 'm' }, 'agency', 400],
      [{ every: '2s', ensemble: 'nope', message: 'm' }, 'ensemble', 400],
      [{ cron: '61 * * * *', agency: 'echo', message: 'm' }, 'cron', 400],
      [{ every: '2s', agency: 'echo' }, 'message', 400],
      [{ id: 'a b', every: '2s', agency: 'echo', message: 'm' }, 'id', 400],
    ];
    for (const [body, path, status] of cases) {
      const response = await send(body);
      expect({ path, status: response.status }).toEqual({ path, status });
      expect(await json(response)).toMatchObject({ error: { path } });
    }
    expect((await send({ id: 'x', every: '1h', agency: 'echo', message: 'm' })).status).toBe(201);
    const again = await send({ id: 'x', every: '1h', agency: 'echo', message: 'm' });
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ error: { code: 'SCHEDULE_EXISTS' } });
  });

  it("runs a schedule in-process, in chats that belong to the schedule's user", async () => {
    const server = await listen({ agencies: [echoAgency('echo')], demo: false }, { authenticate });
    const alice = as(server.url, 'alice');
    await alice.post('/schedules', { id: 'tick', every: '200ms', agency: 'echo', message: 'hi' });
    const view = await until(
      async () => (await json(await alice.get('/schedules'))) as { schedules: ScheduleView[] },
      (body) => (body.schedules[0]?.status.runs ?? 0) >= 1,
    );
    const chatId = view.schedules[0]!.status.lastRunId!;
    await until(
      async () => (await alice.get(`/chats/${chatId}/threads?agency=echo`)).status,
      (status) => status === 200,
    );
    expect((await as(server.url, 'bob').get(`/chats/${chatId}/threads?agency=echo`)).status).toBe(
      404,
    );
  });

  it('stops the server from starting on a bad schedules: entry, naming it', async () => {
    await expect(
      listen(testRegistry({ agencies: [echoAgency('echo')], demo: false }), {
        scheduleConfig: { nightly: { cron: '0 3 * * *', agency: 'nope', message: 'm' } },
      }),
    ).rejects.toThrow(/schedules\.nightly: "agency" names "nope", which is not served/);
  });
});
