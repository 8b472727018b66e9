import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { llmOrcProject } from './helpers.js';

const run = promisify(execFile);
const bin = path.resolve('bin/colloquy.js');

describe('colloquy invoke reads a shell pipe as its input', () => {
  it('`echo … | colloquy invoke NAME` uses the piped text', async () => {
    const root = llmOrcProject();
    const { stdout } = await run(
      'bash',
      [
        '-c',
        `printf 'piped words here' | node ${bin} invoke pipeline --output-format json --no-artifacts --store runs.db`,
      ],
      { cwd: root, env: { ...process.env, XDG_CONFIG_HOME: root }, timeout: 60_000 },
    );
    const json = JSON.parse(stdout) as {
      input: { data: string };
      results: Record<string, { response: string }>;
    };
    expect(json.input).toEqual({ data: 'piped words here' });
    expect(json.results.shout!.response).toBe('INPUT=piped words here');
  }, 90_000);
});
