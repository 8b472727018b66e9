import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ColloquyError } from '../../src/errors.js';
import { isModelError, markModelError } from '../../src/models/modelError.js';
import { toErrorResponse } from '../../src/server/errors.js';
import { publicError, publicMessage, stripServerPaths } from '../../src/server/publicError.js';
import { json, listen, post, tempDir } from './helpers.js';

describe('stripServerPaths', () => {
  it('replaces absolute file paths by their file name and keeps route hints', () => {
    const dir = path.join(os.tmpdir(), 'colloquy-x', 'ensembles');
    expect(stripServerPaths(`Add a.yaml to ${dir}.`)).toBe(
      'Add a.yaml to [server path]/ensembles.',
    );
    expect(stripServerPaths('"/home/me/project/e.yaml":3:1 bad')).toBe(
      '"[server path]/e.yaml":3:1 bad',
    );
    expect(stripServerPaths('Resume it (POST /runs/r1/resume) or GET /ensembles')).toBe(
      'Resume it (POST /runs/r1/resume) or GET /ensembles',
    );
    expect(stripServerPaths('see docs/server.md')).toBe('see docs/server.md');
    expect(stripServerPaths('C:\\Users\\me\\x.yaml failed')).toBe('[server path]/x.yaml failed');
  });
});

describe('publicError', () => {
  it('turns a marked provider error into MODEL_ERROR (502) and redacts it', () => {
    const provider = Object.assign(new Error('bad key sk-proj-abcdefghijklmnop0123'), {
      status: 401,
    });
    markModelError(provider, []);
    expect(isModelError(provider)).toBe(true);
    expect(isModelError(new Error('x', { cause: provider }))).toBe(true);
    expect(isModelError(new Error('plain'))).toBe(false);
    const shown = publicError(provider) as ColloquyError;
    expect(shown.code).toBe('MODEL_ERROR');
    const { status, body } = toErrorResponse(provider);
    expect(status).toBe(502);
    expect(body.error.message).not.toContain('sk-proj-abcdefghijklmnop0123');
    expect(publicError(new Error('plain')) instanceof ColloquyError).toBe(false);
    expect(publicMessage('token Bearer abcdefghijk12345')).toBe('token [REDACTED]');
  });

  it('keeps the exact secrets out of a marked error, its cause and its body', () => {
    const cause = new Error('cause with s3cret-value-xyz');
    const error = Object.assign(new Error('top s3cret-value-xyz', { cause }), {
      error: { message: 'body s3cret-value-xyz' },
      responseBody: '{"key":"s3cret-value-xyz"}',
    });
    markModelError(error, ['s3cret-value-xyz']);
    expect(
      JSON.stringify([error.message, cause.message, error.error, error.responseBody, error.stack]),
    ).not.toContain('s3cret-value-xyz');
  });
});

describe('error bodies name no server path', () => {
  it('ENSEMBLE_NOT_FOUND does not show the ensembles directory', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'one.yaml'),
      'name: one\nagents:\n  - name: a\n    script: ./a.js\n',
    );
    const server = await listen({ ensembles: dir, demo: false });
    const res = await post(`${server.url}/ensembles/nope/runs`, {});
    const body = await json(res);
    expect(res.status).toBe(404);
    expect(body.error.code).toBe('ENSEMBLE_NOT_FOUND');
    expect(JSON.stringify(body)).not.toContain(dir);
    expect(JSON.stringify(body)).not.toContain(os.tmpdir());
  });
});
