import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InstructionsNotFoundError } from '../../src/agency/instructions.js';
import { EnsembleValidationError } from '../../src/ensembles/load.js';
import {
  ColloquyError,
  ConfigError,
  ConflictError,
  SerializationError,
  StoreError,
  type ColloquyErrorCode,
} from '../../src/errors.js';
import { ScriptError } from '../../src/models/scriptedModel.js';
import {
  handleError,
  handleNotFound,
  HttpError,
  notFound,
  payloadTooLarge,
  readJson,
  readQuery,
  STATUS_BY_CODE,
  statusOf,
  toErrorResponse,
  validationError,
} from '../../src/server/errors.js';
import { StaleCheckpointError } from '../../src/threads/chatHistory.js';
import { json } from './helpers.js';

describe('STATUS_BY_CODE', () => {
  it('gives every code a 4xx or 5xx status', () => {
    const codes = Object.keys(STATUS_BY_CODE) as ColloquyErrorCode[];
    expect(codes.length).toBeGreaterThanOrEqual(30);
    for (const code of codes) {
      expect(statusOf(code), code).toBeGreaterThanOrEqual(400);
      expect(statusOf(code), code).toBeLessThan(600);
    }
  });

  it.each([
    ['CHECKPOINT_STALE', 409],
    ['THREAD_CONFLICT', 409],
    ['ENSEMBLE_INVALID', 422],
    ['SERIALIZATION_ERROR', 422],
    ['PROFILE_NOT_FOUND', 422],
    ['INSTRUCTIONS_NOT_FOUND', 422],
    ['MODEL_ERROR', 502],
    ['REPLAY_MISMATCH', 502],
    ['MISSING_API_KEY', 502],
    ['STORE_ERROR', 502],
    ['ABORTED', 503],
    ['CONFIG_INVALID', 400],
    ['THREAD_NOT_FOUND', 404],
    ['INTERNAL_ERROR', 500],
  ] as const)('maps %s to %i', (code, status) => {
    expect(statusOf(code)).toBe(status);
  });
});

describe('toErrorResponse', () => {
  it.each([
    [new StaleCheckpointError('stale'), 409, 'CHECKPOINT_STALE'],
    [new ConflictError('t', 1, 2), 409, 'THREAD_CONFLICT'],
    [new EnsembleValidationError('e.yaml', []), 422, 'ENSEMBLE_INVALID'],
    [new SerializationError('bad json'), 422, 'SERIALIZATION_ERROR'],
    [new InstructionsNotFoundError('no file'), 422, 'INSTRUCTIONS_NOT_FOUND'],
    [new ColloquyError('PROFILE_NOT_FOUND', 'no profile'), 422, 'PROFILE_NOT_FOUND'],
    [new ScriptError('script ran out'), 502, 'MODEL_ERROR'],
    [new StoreError('down', { transient: true }), 502, 'STORE_ERROR'],
    [new ConfigError('bad'), 400, 'CONFIG_INVALID'],
  ])('answers %s with its status and code', (error, status, code) => {
    const response = toErrorResponse(error);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error: { code, message: (error as Error).message } });
  });

  it('answers a code from another copy of Colloquy (unknown to the map) with 500', () => {
    const foreign = new ColloquyError('CONFIG_INVALID', 'x');
    (foreign as { code: string }).code = 'SOMETHING_NEW';
    expect(toErrorResponse(foreign).status).toBe(500);
  });

  it('keeps an HttpError status, code and path', () => {
    const error = new HttpError(409, 'RUN_ACTIVE', 'still running', 'runId');
    expect(error).toBeInstanceOf(ColloquyError);
    expect(error.name).toBe('HttpError');
    expect(toErrorResponse(error)).toEqual({
      status: 409,
      body: { error: { code: 'RUN_ACTIVE', message: 'still running', path: 'runId' } },
    });
    const cause = new Error('root');
    const withCause = new HttpError(400, 'INVALID_JSON', 'bad', { cause });
    expect(withCause.cause).toBe(cause);
    expect(withCause.path).toBeUndefined();
    expect(toErrorResponse(withCause).body.error).not.toHaveProperty('path');
  });

  it('turns a zod error into a 400 naming the field and linking the docs by URL', () => {
    const parsed = z.object({ a: z.object({ b: z.number() }) }).safeParse({ a: { b: 'x' } });
    const response = toErrorResponse(parsed.error);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'INVALID_BODY', path: 'a.b' });
    expect(response.body.error.message).toContain(
      'https://github.com/colloquy-dev/colloquy/blob/main/docs/server.md',
    );
    const root = validationError(z.string().safeParse(1).error!, 'query string');
    expect(root.message).toMatch(/^Invalid the query string/);
    expect(root.path).toBe('');
  });

  it('keeps the status of a Hono HTTPException as HTTP_<status>', () => {
    const response = toErrorResponse(new HTTPException(418, { message: 'teapot' }));
    expect(response).toEqual({
      status: 418,
      body: { error: { code: 'HTTP_418', message: 'teapot' } },
    });
    expect(toErrorResponse(new HTTPException(400)).body.error.message).toBe('Request failed.');
  });

  it('answers anything else with 500 INTERNAL_ERROR and the message', () => {
    expect(toErrorResponse(new Error('boom'))).toMatchObject({
      status: 500,
      body: { error: { code: 'INTERNAL_ERROR', message: expect.stringContaining('boom') } },
    });
    expect(toErrorResponse('a string').body.error.message).toContain('a string');
  });
});

describe('the request helpers', () => {
  const app = new Hono();
  app.onError(handleError);
  app.notFound(handleNotFound);
  app.post('/body', async (c) => c.json(await readJson(c, z.object({ n: z.number().default(1) }))));
  app.get('/query', (c) => c.json(readQuery(c, z.object({ limit: z.coerce.number().min(1) }))));
  app.get('/big', (c) => payloadTooLarge(c, 10));
  app.get('/thing', () => {
    throw notFound('AGENCY_NOT_FOUND', 'Agency "x"', ['a', 'b'], 'Pick one of them.');
  });

  it('reads a JSON body, an empty body as {}, and refuses non-JSON with INVALID_JSON', async () => {
    const ok = await app.request('/body', { method: 'POST', body: '{"n":2}' });
    expect(await json(ok)).toEqual({ n: 2 });
    const empty = await app.request('/body', { method: 'POST', body: '  ' });
    expect(await json(empty)).toEqual({ n: 1 });
    const bad = await app.request('/body', { method: 'POST', body: '{nope' });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.code).toBe('INVALID_JSON');
    const wrong = await app.request('/body', { method: 'POST', body: '{"n":"x"}' });
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).error).toMatchObject({ code: 'INVALID_BODY', path: 'n' });
  });

  it('checks the query string', async () => {
    expect(await json(await app.request('/query?limit=3'))).toEqual({ limit: 3 });
    const bad = await app.request('/query?limit=0');
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.message).toContain('query string');
  });

  it('answers unknown routes, large bodies and unknown names with their codes', async () => {
    const route = await app.request('/nowhere');
    expect(route.status).toBe(404);
    expect((await json(route)).error.code).toBe('ROUTE_NOT_FOUND');
    const big = await app.request('/big');
    expect(big.status).toBe(413);
    expect((await json(big)).error.message).toContain('10 bytes');
    const thing = await app.request('/thing');
    expect(thing.status).toBe(404);
    expect((await json(thing)).error.message).toBe(
      'Agency "x" was not found. Known: a, b. Pick one of them.',
    );
  });

  it('lists at most 20 known names', () => {
    const known = Array.from({ length: 25 }, (_, i) => `n${i}`);
    const error = notFound('RUN_NOT_FOUND', 'Run "r"', known, '');
    expect(error.message).toContain('n19, ...');
    expect(error.message).not.toContain('n20');
    expect(notFound('RUN_NOT_FOUND', 'Run "r"', [], 'Start one.').message).toBe(
      'Run "r" was not found. Start one.',
    );
  });
});
