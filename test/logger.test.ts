import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
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

describe('redactSecrets', () => {
  it('keeps token counts', () => {
    expect(redactSecrets({ inputTokens: 3, max_tokens: 9, token: 't' })).toEqual({
      inputTokens: 3,
      max_tokens: 9,
      token: '[REDACTED]',
    });
  });
});
