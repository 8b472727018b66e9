/**
 * Captures the default logger's lines (parsed JSON) from now on; `restore` puts the previous
 * logger back.
 * @module
 */
import { Writable } from 'node:stream';
import { createLogger, getDefaultLogger, setDefaultLogger } from '../../src/logger.js';

/** The captured lines and a way to stop capturing. */
export interface CapturedLogs {
  lines: Array<Record<string, unknown>>;
  restore(): void;
}

/** Routes the default logger (at `level`, default warn) into memory. */
export function captureLogs(level: 'debug' | 'info' | 'warn' | 'error' = 'warn'): CapturedLogs {
  const previous = getDefaultLogger();
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  setDefaultLogger(createLogger({ level, destination }));
  return { lines, restore: () => setDefaultLogger(previous) };
}
