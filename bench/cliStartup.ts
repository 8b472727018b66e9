/**
 * CLI start-up against a bare Node start, measured in the same run: `node -e 0`, then the built
 * package's `colloquy --help` and `colloquy threads list` (bin/colloquy.js with COLLOQUY_DIST=1, so
 * dist/ runs as in an installed copy). Rounds interleave the commands; the ratios compare medians.
 * Targets: --help within 3×, threads list within 5×.
 *   Run: npm run build && npx tsx bench/cliStartup.ts [--rounds 15]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'colloquy.js');
if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(2);
}
const at = process.argv.indexOf('--rounds');
const rounds = at > 0 ? Number(process.argv[at + 1]) : 15;
const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-bench-startup-'));
const env = { ...process.env, COLLOQUY_DIST: '1', COLLOQUY_DB: path.join(dir, 'bench.db') };

const cases: Array<{ name: string; args: string[] }> = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'colloquy --help', args: [BIN, '--help'] },
  { name: 'colloquy threads list', args: [BIN, 'threads', 'list'] },
];

// An empty database for `threads list` (created once, outside the timings).
spawnSync(process.execPath, [BIN, 'demo', '--no-progress'], { cwd: dir, env, stdio: 'ignore' });

const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
for (let round = 0; round < rounds; round += 1) {
  for (const { name, args } of cases) {
    const started = process.hrtime.bigint();
    const run = spawnSync(process.execPath, args, { cwd: dir, env, stdio: 'ignore' });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (run.status !== 0) throw new Error(`${name} exited with ${run.status}`);
    times.get(name)!.push(ms);
  }
}
rmSync(dir, { recursive: true, force: true });

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const base = median(times.get('node -e 0')!);
console.log(`CLI start-up, median of ${rounds} interleaved rounds (built package)`);
for (const { name } of cases) {
  const ms = median(times.get(name)!);
  const target = name.includes('--help')
    ? ' (target ≤ 3×)'
    : name.includes('threads')
      ? ' (target ≤ 5×)'
      : '';
  console.log(
    `  ${name.padEnd(24)} ${ms.toFixed(0).padStart(5)} ms  ${(ms / base).toFixed(2)}× node${target}`,
  );
}
