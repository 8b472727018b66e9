import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { queueConnection } from '../../src/queue/connection.js';
import { redactUrl } from '../../src/redact.js';
import { isTerminal, remoteError } from '../../src/queue/jobs.js';
import { ColloquyError } from '../../src/errors.js';

describe('queue connection options', () => {
  it('accepts redis URLs and names its keys under the prefix', () => {
    const connection = queueConnection({ queue: 'redis://127.0.0.1:6390', prefix: 'app' });
    expect(connection.prefix).toBe('app');
    expect(connection.keys.callEvents('c1')).toBe('app:q:call:c1');
    expect(connection.keys.cancel).toBe('app:q:cancel');
    expect(connection.keys.done('c1')).toBe('app:q:done:c1');
    expect(connection.keys.runEvents('r1')).toBe('app:q:run:r1:events');
    // The agency name's length keeps `a` + `b:c` apart from `a:b` + `c`.
    expect(connection.keys.journal('a', 'b:c')).not.toBe(connection.keys.journal('a:b', 'c'));
    expect(queueConnection().url).toBe('redis://127.0.0.1:6379');
  });

  it('rejects other URLs and odd prefixes with the fix', () => {
    expect(() => queueConnection({ queue: 'postgres://x@h/db' })).toThrow(ConfigError);
    expect(() => queueConnection({ queue: 'postgres://x@h/db' })).toThrow(/--queue redis:\/\//);
    expect(() => queueConnection({ prefix: 'a b' })).toThrow(/prefix "a b"/);
  });

  it('hides passwords in messages', () => {
    expect(redactUrl('redis://user:secret@h:1')).toBe('redis://user:***@h:1');
    expect(redactUrl('not a url')).toBe('not a url');
  });
});

describe('queue messages', () => {
  it('a remote error keeps its name, code and message', () => {
    const error = remoteError({ name: 'StoreError', code: 'STORE_ERROR', message: 'down' });
    expect(error).toBeInstanceOf(ColloquyError);
    expect(error).toMatchObject({ name: 'StoreError', code: 'STORE_ERROR', message: 'down' });
    expect(remoteError({ name: 'TypeError', message: 'x' })).not.toBeInstanceOf(ColloquyError);
  });

  it('only run_completed and error end a call', () => {
    expect(isTerminal({ type: 'run_completed' })).toBe(true);
    expect(isTerminal({ type: 'error' })).toBe(true);
    expect(isTerminal({ type: 'agent_run_completed' })).toBe(false);
  });
});
