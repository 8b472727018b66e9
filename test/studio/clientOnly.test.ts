/**
 * The studio reads the server only through the public typed client (`colloquy/client`): no other
 * module of the page calls `fetch` or parses event streams itself, and nothing names another
 * host (the page works offline).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const studio = fileURLToPath(new URL('../../studio/src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe('the studio uses the public client only', () => {
  const files = sources(studio);

  it('calls fetch and reads SSE only in lib/api.ts, which goes through colloquy/client', () => {
    expect(files.length).toBeGreaterThan(20);
    const fetching = files
      .filter((file) =>
        /\bfetch\s*\(|EventSource|eventsource-parser|XMLHttpRequest/.test(
          readFileSync(file, 'utf8'),
        ),
      )
      .map((file) => path.relative(studio, file));
    expect(fetching).toEqual([path.join('lib', 'api.ts')]);
    const api = readFileSync(path.join(studio, 'lib', 'api.ts'), 'utf8');
    expect(api).toContain("from 'colloquy/client'");
    expect(api).toMatch(/createClient\(/);
  });

  it('names no other host', () => {
    const remote = files.filter((file) =>
      /['"`]https?:\/\/(?!example\.com)/.test(readFileSync(file, 'utf8')),
    );
    expect(remote.map((file) => path.relative(studio, file))).toEqual([]);
  });
});
