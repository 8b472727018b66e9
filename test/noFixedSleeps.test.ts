// Tests wait by polling a condition (vi.waitFor, a loop) or by awaiting the event itself, never by
// a fixed sleep. A sleep that is part of the scenario (a model that must take time, an outage that
// must last) stays with a `// sleep-ok: <reason>` comment. Checked with the TypeScript parser
// (test/support/fixedSleeps.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixedSleeps, fixedSleepsUnder } from './support/fixedSleeps.js';

const testDir = path.dirname(fileURLToPath(import.meta.url));

const lines = (code: string) => fixedSleeps('sample.ts', code).map((sleep) => sleep.line);

describe('fixed sleeps in tests', () => {
  it('none is left in test/ outside a polling loop or a sleep-ok comment', () => {
    const found = fixedSleepsUnder(testDir);
    expect(
      found,
      `Fixed sleeps (file:line, relative to test/): poll a condition instead (vi.waitFor with a timeout and a message, or await the event); if the sleep is part of the scenario, mark it "// sleep-ok: <reason>".\n${found.join('\n')}`,
    ).toEqual([]);
  });

  it('finds a promise around setTimeout and a timers/promises sleep, by line', () => {
    const code = [
      "import { setTimeout as pause } from 'node:timers/promises';",
      'await new Promise((r) => setTimeout(r, 50));',
      'await pause(1_500);',
      'const tick = () => new Promise((resolve) => setTimeout(resolve, 1));',
      'await sleep(20);',
      'restarting = sleep(400).then(restart);',
    ].join('\n');
    expect(lines(code)).toEqual([2, 3, 4, 5, 6]);
  });

  it('accepts a sleep in a polling loop, a marked one, a timer with a callback and code in strings', () => {
    const code = [
      'for (let i = 0; i < 50 && !done(); i++) await sleep(20);',
      'while (!done()) {',
      '  if (check()) break;',
      '  await new Promise((resolve) => setTimeout(resolve, 25));',
      '}',
      '// sleep-ok: the outage itself',
      '// (a second comment line)',
      'await sleep(2_700);',
      'await sleep(100); // sleep-ok: a model that must take time',
      'setTimeout(() => controller.abort(), 50);',
      'await sleep(delayMs);',
      "const script = 'await new Promise((r) => setTimeout(r, 50));';",
    ].join('\n');
    expect(lines(code)).toEqual([]);
  });

  it('does not let a loop outside the sleeping function excuse it, nor a bare marker', () => {
    const code = [
      'for (const backend of backends) {',
      "  it('waits', async () => {",
      '    await sleep(100);',
      '  });',
      '}',
      '// sleep-ok:',
      'await sleep(100);',
    ].join('\n');
    expect(lines(code)).toEqual([3, 7]);
  });
});
