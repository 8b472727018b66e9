/**
 * Fuzzing HTTP bodies through every route of the app: random JSON (with `__proto__` keys, lone
 * surrogates, odd types), near-valid bodies and non-JSON text. Every answer must be a JSON
 * response below 500 (never INTERNAL_ERROR), within 2 s, without prototype pollution or code
 * execution.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { createRegistry } from '../../src/server/registry.js';
import { MemoryStore } from '../../src/stores/memory.js';
import {
  checkProperty,
  CODE_PAYLOADS,
  expectClean,
  fuzzRuns,
  fuzzTimeout,
  POLLUTING_KEYS,
  withinBudget,
} from '../setup/fuzz.js';
import { echoAgency, tempDir, writeScript } from './helpers.js';

const ROUTES: Array<{ method: string; path: string; fields: string[] }> = [
  {
    method: 'POST',
    path: '/agencies/echo/responses',
    fields: ['message', 'chatId', 'recipient', 'context'],
  },
  {
    method: 'POST',
    path: '/agencies/echo/responses/stream',
    fields: ['message', 'chatId', 'recipient'],
  },
  { method: 'POST', path: '/v1/chat/completions', fields: ['model', 'messages', 'stream', 'user'] },
  { method: 'POST', path: '/ensembles/one/runs', fields: ['input', 'runId', 'initialContext'] },
  { method: 'POST', path: '/runs/r1/resume', fields: ['input'] },
  { method: 'POST', path: '/chats/c1/checkpoints', fields: ['label', 'agency'] },
  { method: 'POST', path: '/chats/c1/fork', fields: ['checkpointId', 'agency', 'chatId'] },
  { method: 'POST', path: '/chats/c1/rollback', fields: ['checkpointId', 'agency'] },
  { method: 'GET', path: '/chats/c1/threads', fields: [] },
  { method: 'GET', path: '/runs/r1', fields: [] },
];

const oddString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    '\udbff',
    '\udfff-x',
    'echo',
    'demo',
    'one',
    'r1',
    'c1',
    '',
    'x'.repeat(5000),
    ...CODE_PAYLOADS,
    ...POLLUTING_KEYS,
  ),
);
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    oddString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(oddString, fc.constantFrom(...POLLUTING_KEYS)), tie('v'), {
      maxKeys: 4,
    }),
  ),
})).v;

/** A body for a route: its own fields with odd values, random JSON, or text that is not JSON. */
function bodyFor(fields: string[]): fc.Arbitrary<string | undefined> {
  const structured = fc
    .array(fc.tuple(fc.constantFrom(...fields, ...POLLUTING_KEYS, 'x'), value), { maxLength: 5 })
    .map(
      (pairs) =>
        `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`,
    );
  return fc.oneof(
    structured,
    value.map((v) => JSON.stringify(v) ?? 'null'),
    fc.constantFrom(
      '{',
      '[1,',
      '{"message": "\\udbff"}',
      '{"__proto__": {"polluted": true}}',
      '{"constructor": {"prototype": {"polluted": 1}}}',
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
      'null',
      '"x"',
      '',
    ),
    fc.string({ maxLength: 40 }),
    fc.constant(undefined),
  );
}

const request = fc.constantFrom(...ROUTES).chain((route) =>
  fc.record({
    route: fc.constant(route),
    body: route.method === 'GET' ? fc.constant(undefined) : bodyFor(route.fields),
    query: fc.option(
      fc.dictionary(
        fc.constantFrom('from', 'limit', 'agency', 'archived', 'after'),
        fc
          .oneof(
            fc.string({ maxLength: 12 }),
            fc.constantFrom('-1', '0', '1e9', 'true', '%ED%A0%80', '%'),
          )
          .map((s) => (s.startsWith('%') ? s : encodeURIComponent(s))),
        { maxKeys: 2 },
      ),
      { nil: undefined },
    ),
  }),
);

describe('HTTP body fuzzing', () => {
  const dir = tempDirOnce();
  const app = createApp({
    registry: createRegistry({
      agencies: [echoAgency('echo', new MemoryStore())],
      ensembles: dir,
    }),
  });
  const runs = fuzzRuns(400);
  it(
    'every route answers random bodies with JSON below 500, within 2 s, without pollution',
    () =>
      checkProperty(
        'http-bodies',
        request,
        async ({ route, body, query }) => {
          const qs = query
            ? `?${Object.entries(query)
                .map(([k, v]) => `${k}=${v}`)
                .join('&')}`
            : '';
          const res = await withinBudget(`${route.method} ${route.path}`, () =>
            app.request(`${route.path}${qs}`, {
              method: route.method,
              headers: body === undefined ? {} : { 'content-type': 'application/json' },
              ...(body === undefined ? {} : { body }),
            }),
          );
          const text = await withinBudget('response body', () => res.text());
          expect(
            res.status,
            `${route.method} ${route.path} ${body?.slice(0, 200)} → ${text.slice(0, 300)}`,
          ).toBeLessThan(500);
          if (res.status >= 400) expect(JSON.parse(text).error.code).toMatch(/^[A-Z_0-9]+$/);
          expectClean();
        },
        400,
      ),
    fuzzTimeout(runs, 20),
  );
});

function tempDirOnce(): string {
  const dir = tempDir();
  const script = writeScript(dir, 'a.js', `reply({ success: true, data: { ok: true } });`);
  writeFileSync(
    path.join(dir, 'one.yaml'),
    `name: one\nagents:\n  - name: a\n    script: ${script}\n`,
  );
  return dir;
}
