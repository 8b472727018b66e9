import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnColloquy, type CliRun } from './spawnCli.js';

const INDEX = fileURLToPath(new URL('../../src/index.ts', import.meta.url));
const MODELS = fileURLToPath(new URL('../../src/models.ts', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-cli-graph-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function colloquy(args: string[]): Promise<CliRun> {
  return spawnColloquy(args, { cwd: dir, env: { COLLOQUY_DB: ':memory:' } });
}

writeFileSync(
  path.join(dir, 'agencies.ts'),
  `import { Agency, Agent, MemoryStore, ThreadManager } from ${JSON.stringify(INDEX)};\n` +
    `import { ScriptedModel } from ${JSON.stringify(MODELS)};\n` +
    `const a = (name: string) => new Agent({ name, instructions: 'x', model: new ScriptedModel(() => 'ok') });\n` +
    `const [front, back, side] = [a('Front'), a('Back'), a('Side')];\n` +
    `const threads = () => new ThreadManager({ store: new MemoryStore() });\n` +
    `export const one = new Agency({ name: 'one', entryPoints: [front], communicationFlows: [[front, back]], threads: threads() });\n` +
    `export const two = new Agency({ name: 'two', entryPoints: [side], threads: threads() });\n`,
);

describe('colloquy graph', () => {
  it("prints one agency's Mermaid flowchart with MODULE#export", async () => {
    const run = await colloquy(['graph', 'agencies.ts#one', '--direction', 'lr']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'flowchart LR\n  user(["User"])\n  a0["Front"]\n  a1["Back"]\n  user --> a0\n  a0 -->|send_message| a1\n',
    );
  });

  it('prints every agency of a module, each named', async () => {
    const run = await colloquy(['graph', 'agencies.ts']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('%% agency: one\nflowchart TD');
    expect(run.stdout).toContain('%% agency: two\nflowchart TD');
  });

  it('refuses an unknown direction and a missing module', async () => {
    const bad = await colloquy(['graph', 'agencies.ts', '--direction', 'up']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--direction "up" is not a direction');
    const missing = await colloquy(['graph', 'nope.ts']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('names no file');
  });
});
