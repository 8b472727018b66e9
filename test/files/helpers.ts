/** Shared fixtures of the files tests: temp folders of documents, and a logger that keeps its lines. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { Logger } from 'pino';
import { createLogger } from '../../src/logger.js';

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp dir, removed after the test. */
export function tempDir(prefix = 'colloquy-files-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Writes `files` (relative path → content) under a new temp folder and returns `{ folder, indexDir }`. */
export function docsFolder(files: Record<string, string | Buffer>): {
  folder: string;
  indexDir: string;
} {
  const root = tempDir();
  const folder = path.join(root, 'docs');
  for (const [name, content] of Object.entries(files)) writeDoc(folder, name, content);
  return { folder, indexDir: path.join(root, 'index') };
}

/** Writes one file, creating its directories. */
export function writeDoc(folder: string, name: string, content: string | Buffer): void {
  const file = path.join(folder, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

/** `count` filler lines, then `lines` placed at 1-based positions. */
export function linesWith(count: number, placed: Record<number, string>): string {
  return (
    Array.from({ length: count }, (_, i) => placed[i + 1] ?? `filler line number ${i + 1}`).join(
      '\n',
    ) + '\n'
  );
}

/** A warn-level logger whose parsed lines are kept in `entries`. */
export function captureLogger(): { logger: Logger; entries: Array<Record<string, unknown>> } {
  const entries: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    level: 'warn',
    destination: { write: (line: string) => void entries.push(JSON.parse(line)) },
  });
  return { logger, entries };
}

/** A readFile spy: counts reads per relative path. */
export function countingReader(folder: string): {
  readFile: (p: string) => Promise<Buffer>;
  reads: string[];
} {
  const reads: string[] = [];
  return {
    reads,
    readFile: async (absolute: string) => {
      reads.push(path.relative(folder, absolute).split(path.sep).join('/'));
      return fs.promises.readFile(absolute);
    },
  };
}
