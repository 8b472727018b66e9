/**
 * Duck-typed fake agencies (issue 25): an export with an Agency's name, agents, getResponse and
 * getResponseStream but nothing else used to be served, and then `GET /agencies` answered 500
 * for every agency. It is now refused where agencies enter a server, naming what it lacks.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Agency } from '../../src/agency/agency.js';
import { agencyShapeProblems } from '../../src/agency/isAgencyLike.js';
import { createApp } from '../../src/server/app.js';
import { createRegistry, importAgencies } from '../../src/server/registry.js';
import { echoAgency, tempDir } from './helpers.js';

const fake = () =>
  ({
    name: 'fake',
    agents: new Map(),
    getResponse() {},
    getResponseStream() {},
  }) as unknown as Agency;

describe('fake agencies', () => {
  it('lists what a fake lacks and nothing for a real agency', () => {
    expect(agencyShapeProblems(echoAgency())).toEqual([]);
    const problems = agencyShapeProblems(fake());
    expect(problems).toContain('"entryPoints" is not a non-empty array of agent names');
    expect(problems).toContain('"recipientsOf" is not a method');
    const throwing = Object.defineProperty(fake(), 'flows', {
      get: () => {
        throw new Error('no flows');
      },
    });
    expect(agencyShapeProblems(throwing)).toContain('reading "flows" threw (no flows)');
  });

  it('is refused by createRegistry, so GET /agencies never meets one', async () => {
    expect(() => createRegistry({ agencies: [echoAgency(), fake()] })).toThrow(
      /createRegistry: agency "fake" looks like an Agency but cannot be served: .*"entryPoints"/,
    );
    const app = createApp({ registry: createRegistry({ agencies: [echoAgency()] }) });
    expect((await app.request('/agencies')).status).toBe(200);
  });

  it('is refused when a served module exports one beside a real agency, naming the export', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'agencies.mjs');
    writeFileSync(
      file,
      "export const good = { name: 'x' };\nexport const impostor = { name: 'fake', agents: new Map(), getResponse() {}, getResponseStream() {} };\n",
    );
    await expect(importAgencies(file)).rejects.toThrow(
      `The agencies module ${file}: export "impostor" looks like an Agency but cannot be served`,
    );
  });
});
