// `colloquy demo/traces/threads delete --store redis://… | postgres://…`: a Redis or Postgres
// thread store gets its trace store automatically (same server, same prefix or schema), so the
// CLI lists, shows and deletes traces there. Uses the test servers of test/setup/services.ts.
import { describe, expect, it } from 'vitest';
import {
  postgresSkip,
  postgresUrl,
  redisSkip,
  redisUrl,
  uniqueName,
} from '../setup/serviceUrls.js';
import { spawnColloquy, type CliRun } from './spawnCli.js';

function colloquy(args: string[]): Promise<CliRun> {
  return spawnColloquy(args);
}

const backends = [
  { name: 'Redis', skip: redisSkip(), url: () => redisUrl()! },
  { name: 'Postgres', skip: postgresSkip(), url: () => postgresUrl()! },
];

for (const backend of backends) {
  describe.skipIf(Boolean(backend.skip))(`colloquy traces on ${backend.name}`, () => {
    it('demo saves its trace next to the threads; traces list/show read it; threads delete drops it', async () => {
      const store = backend.url();
      const chat = uniqueName('trace-cli');
      const demo = await colloquy(['demo', '--store', store, '--chat-id', chat, '--no-progress']);
      expect(demo.code, demo.stderr).toBe(0);
      const list = await colloquy(['traces', 'list', '--store', store, '--chat-id', chat]);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toMatch(
        new RegExp(`agency demo .* 14 spans {2}105 tokens {2}chat=${chat}`),
      );
      const show = await colloquy(['traces', 'show', '--store', store, '--chat-id', chat]);
      expect(show.stdout.match(/model scripted/g)).toHaveLength(7);
      const removed = await colloquy(['threads', 'delete', chat, '--store', store, '--yes']);
      expect(removed.code, removed.stderr).toBe(0);
      const after = await colloquy([
        'traces',
        'list',
        '--store',
        store,
        '--chat-id',
        chat,
        '--json',
      ]);
      expect(JSON.parse(after.stdout)).toEqual([]);
    });
  });
}
