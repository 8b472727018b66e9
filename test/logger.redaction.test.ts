import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createLogger,
  getDefaultLogger,
  isLogLevel,
  LOG_LEVELS,
  setDefaultLogger,
} from '../src/logger.js';
import { REDACTED } from '../src/redact.js';

function capture() {
  const lines: string[] = [];
  const destination = { write: (line: string) => void lines.push(line) };
  const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { lines, destination, records };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('createLogger levels', () => {
  it('writes JSON lines with the level number, name and message', () => {
    const { destination, records } = capture();
    const logger = createLogger({ level: 'debug', destination, name: 'unit' });
    logger.debug({ attempt: 2 }, 'retrying');
    const [record] = records();
    expect(record).toMatchObject({ level: 20, name: 'unit', attempt: 2, msg: 'retrying' });
  });

  it('writes each level at or above the threshold, and nothing when silent', () => {
    for (const [index, level] of LOG_LEVELS.entries()) {
      if (level === 'silent') continue;
      const { lines, destination } = capture();
      const logger = createLogger({ level, destination });
      logger.fatal('f');
      logger.error('e');
      logger.warn('w');
      logger.info('i');
      logger.debug('d');
      logger.trace('t');
      expect(lines, level).toHaveLength(index + 1);
    }
    const { lines, destination } = capture();
    const silent = createLogger({ level: 'silent', destination });
    silent.fatal('never');
    expect(lines).toEqual([]);
  });

  it('takes the level from COLLOQUY_LOG_LEVEL, ignoring an unknown value', () => {
    vi.stubEnv('COLLOQUY_LOG_LEVEL', 'debug');
    expect(createLogger({ destination: capture().destination }).level).toBe('debug');
    vi.stubEnv('COLLOQUY_LOG_LEVEL', 'loud');
    expect(createLogger({ destination: capture().destination }).level).toBe('warn');
    vi.stubEnv('COLLOQUY_LOG_LEVEL', 'debug');
    expect(createLogger({ level: 'error', destination: capture().destination }).level).toBe(
      'error',
    );
  });

  it('defaults its name to colloquy', () => {
    const { destination, records } = capture();
    createLogger({ destination }).warn('x');
    expect(records()[0]!.name).toBe('colloquy');
  });
});

describe('isLogLevel', () => {
  it('accepts the known levels only', () => {
    for (const level of LOG_LEVELS) expect(isLogLevel(level)).toBe(true);
    expect(isLogLevel('WARN')).toBe(false);
    expect(isLogLevel('verbose')).toBe(false);
    expect(isLogLevel('')).toBe(false);
  });
});

describe('createLogger redaction', () => {
  it('removes exact secrets given, in fields and in the message', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'info', destination, secrets: ['hunter2-long'] });
    logger.info({ note: 'password is hunter2-long' }, 'user typed hunter2-long');
    const text = lines.join('');
    expect(text).not.toContain('hunter2-long');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      note: `password is ${REDACTED}`,
      msg: `user typed ${REDACTED}`,
    });
  });

  it('redacts headers two levels down and x-api-key headers', () => {
    const { records, destination } = capture();
    const logger = createLogger({ level: 'info', destination });
    logger.info({
      request: { headers: { authorization: 'Basic Zm9vOmJhcg==', 'x-api-key': 'plain' } },
      headers: { 'x-api-key': 'plain-too' },
    });
    const record = records()[0]!;
    expect(record.request).toEqual({ headers: { authorization: REDACTED, 'x-api-key': REDACTED } });
    expect(record.headers).toEqual({ 'x-api-key': REDACTED });
  });

  it('redacts an error logged as a field', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'info', destination });
    logger.error({ err: new Error('auth failed for sk-abcdefghijklmnopqrstuvwx') }, 'call failed');
    expect(lines.join('')).not.toContain('sk-abcdefghijklmnopqrstuvwx');
    expect(lines.join('')).toContain(REDACTED);
  });

  it('redacts string interpolation arguments', () => {
    const { records, destination } = capture();
    const logger = createLogger({ level: 'info', destination });
    logger.info('key %s used', 'sk-abcdefghijklmnopqrstuvwx');
    expect(records()[0]!.msg).toBe(`key ${REDACTED} used`);
  });
});

describe('the default logger', () => {
  it('is shared through globalThis and can be replaced', () => {
    const first = getDefaultLogger();
    expect(getDefaultLogger()).toBe(first);
    const { lines, destination } = capture();
    const replacement = createLogger({ level: 'info', destination });
    setDefaultLogger(replacement);
    try {
      expect(getDefaultLogger()).toBe(replacement);
      getDefaultLogger().info('through the default');
      expect(lines).toHaveLength(1);
    } finally {
      setDefaultLogger(first);
    }
  });
});
