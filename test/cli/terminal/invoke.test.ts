import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnColloquy } from '../spawnCli.js';
import { screenLines, startTerminal, type Terminal } from './tmux.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ARGS = [
  'invoke',
  'examples/ensembles/iterative-analysis.yaml',
  '--output',
  'rich',
  '--store',
  'memory',
];
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[/;
const started: Terminal[] = [];

async function invokeInTerminal(name: string, env: Record<string, string> = {}) {
  const terminal = await startTerminal({
    name: `colloquy-invoke-${name}-${process.pid}`,
    args: ARGS,
    cwd: ROOT,
    env,
  });
  started.push(terminal);
  await terminal.waitForExit(60_000);
  return terminal;
}

afterAll(async () => {
  await Promise.all(started.map((terminal) => terminal.kill()));
});

describe('colloquy invoke --output rich', { timeout: 90_000 }, () => {
  it('on a terminal: colour, plain labels, a turns table and results as YAML', async () => {
    const terminal = await invokeInTerminal('tty');
    const coloured = await terminal.screen({ colour: true });
    expect(coloured).toContain('\x1b[32m✓ completed\x1b[39m');
    const lines = screenLines(await terminal.screen());
    expect(lines.some((l) => /step step|agent agent|run run/.test(l))).toBe(false);
    expect(lines.some((l) => /^✓ ensemble iterative-analysis {2}\S+ m?s/.test(l))).toBe(true);
    expect(lines.some((l) => /^├─ ✓ step 1 /.test(l))).toBe(true);
    expect(lines.some((l) => /^│ {2}└─ ✓ analyzer /.test(l))).toBe(true);
    expect(lines).toContain('Turns');
    expect(lines.some((l) => /^ {2}turn {2}agent +time {2}output$/.test(l))).toBe(true);
    expect(
      lines.some((l) =>
        /^ {5}1 {2}analyzer +\d\.\d\d s {2}\{ draft: 1, summary: Sales rose in Q3\. \}$/.test(l),
      ),
    ).toBe(true);
    const results = lines.indexOf('Results');
    expect(lines.slice(results + 1, results + 4)).toEqual([
      '  ✓ analyzer success',
      '      draft: 3',
      '      summary: Sales rose 12% in Q3, led by EMEA (+20%); APAC was flat.',
    ]);
    const state = lines.indexOf('Final state');
    expect(lines.slice(state + 1, state + 3)).toEqual(['  analysis:', '    draft: 3']);
    expect(lines.some((l) => l.includes('{"draft"'))).toBe(false);
  });

  it('with NO_COLOR on a terminal: no colour', async () => {
    const terminal = await invokeInTerminal('nocolor', { NO_COLOR: '1' });
    const coloured = await terminal.screen({ colour: true });
    expect(coloured).toContain('✓ completed');
    expect(coloured).not.toMatch(ANSI);
  });

  it('off a terminal: no escape sequences at all, same sections', async () => {
    const run = await spawnColloquy(ARGS, { cwd: ROOT });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(ANSI);
    expect(run.stderr).not.toMatch(ANSI);
    expect(run.stdout).toMatch(/^✓ completed {2}7 turns · 3 requests, 45 tokens · run \S+$/m);
    expect(run.stdout).toMatch(/^Final state\n {2}analysis:\n {4}draft: 3$/m);
  });
});
