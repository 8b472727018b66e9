// examples/schedules: its colloquy.yaml parses, its schedules check against its agencies, and a
// server started on it lists them with their next tick.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRegistry, readConfig } from '../../../src/server/registry.js';
import type { ScheduleView } from '../../../src/server/schedules/types.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { json, listen } from '../helpers.js';

describe('examples/schedules', () => {
  it('serves its two schedules', async () => {
    const config = await readConfig(path.resolve('examples/schedules/colloquy.yaml'));
    expect(Object.keys(config.schedules ?? {})).toEqual(['heartbeat', 'morning-report']);
    const registry = await loadRegistry({ config, store: new MemoryStore() });
    const server = await listen(registry, { scheduleConfig: config.schedules! });
    const body = (await json(await fetch(`${server.url}/schedules`))) as {
      schedules: ScheduleView[];
    };
    expect(body.schedules.map((s) => [s.id, s.source, s.user ?? null])).toEqual([
      ['heartbeat', 'config', null],
      ['morning-report', 'config', 'ops'],
    ]);
    const next = Date.parse(body.schedules[1]!.status.nextTickAt!);
    expect(new Date(next).getMinutes()).toBe(0);
    expect(new Date(next).getHours()).toBe(9);
  });
});
