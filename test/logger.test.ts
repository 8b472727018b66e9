import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, LOG_LEVELS } from '../src/logger.js';
import { redactSecrets } from '../src/redact.js';

function capture() {
  const lines: string[] = [];
  return { lines, destination: { write: (line: string) => void lines.push(line) } };
}

describe('createLogger', () => {
  it('redacts secret fields and key-like values', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'info', destination });
    logger.info(
      {
        apiKey: 'abc',
        headers: { authorization: 'Bearer xyz1234567890' },
        note: 'sk-abcdefghijklmnopqrstu',
      },
      'calling with sk-abcdefghijklmnopqrstu',
    );
    expect(lines.join('')).not.toMatch(/abc"|xyz1234567890|sk-abcdefghijklmnopqrstu/);
    expect(lines.join('')).toContain('[REDACTED]');
  });

  it('respects the level', () => {
    const { lines, destination } = capture();
    createLogger({ level: 'warn', destination }).info('hidden');
    expect(lines).toHaveLength(0);
  });
});

describe('createLogger before pino loads (pino is made on the first line at an enabled level)', () => {
  it('answers level and isLevelEnabled as pino does, at every level', () => {
    for (const level of LOG_LEVELS) {
      const ours = createLogger({ level, destination: capture().destination });
      const theirs = pino({ level }, capture().destination);
      expect(ours.level).toBe(theirs.level);
      expect(ours.levelVal).toBe(theirs.levelVal);
      for (const asked of [...LOG_LEVELS, 'nonsense'])
        expect([level, asked, ours.isLevelEnabled(asked)]).toEqual([
          level,
          asked,
          theirs.isLevelEnabled(asked),
        ]);
    }
  });

  it('keeps a level set before the first line, and logs JSON lines with bindings after it', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'warn', destination, name: 'test' });
    logger.debug('hidden');
    logger.level = 'debug';
    logger.debug({ component: 'queue' }, 'shown');
    logger.child({ component: 'server' }).info('from a child');
    logger.level = 'error';
    logger.warn('hidden again');
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map((r) => [r.level, r.name, r.component, r.msg])).toEqual([
      [20, 'test', 'queue', 'shown'],
      [30, 'test', 'server', 'from a child'],
    ]);
  });
});

describe('redactSecrets', () => {
  it('keeps token counts', () => {
    expect(redactSecrets({ inputTokens: 3, max_tokens: 9, token: 't' })).toEqual({
      inputTokens: 3,
      max_tokens: 9,
      token: '[REDACTED]',
    });
  });
});
