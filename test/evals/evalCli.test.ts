import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/evals/dataset.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { spawnColloquy, type CliRun } from '../cli/spawnCli.js';
import { recordedDemoChat } from './helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const EXAMPLE = path.join(root, 'examples', 'evals', 'demo.jsonl');
const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-cli-evals-'));
const DB = path.join(dir, 'colloquy.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// Each test spawns the CLI a few times (seconds each on a loaded machine).
const SLOW = 240_000;

function colloquy(args: string[]): Promise<CliRun> {
  return spawnColloquy(args, { cwd: dir, env: { COLLOQUY_DB: DB } });
}

describe('colloquy eval', () => {
  it(
    'gates CI: exit 0 when every scorer meets its threshold, 1 when one falls below',
    async () => {
      const passing = await colloquy([
        'eval',
        'run',
        EXAMPLE,
        '--agency',
        'demo',
        '--tag',
        'gate',
        '--threshold',
        '0.9',
      ]);
      expect(passing.code, passing.stderr).toBe(0);
      expect(passing.stdout).toMatch(/captured-tidal +replay +.*1\.00$/m);
      expect(passing.stdout).toMatch(/PASSED/);
      expect(passing.stderr).toMatch(/\[4\/4\] /);
      const failing = await colloquy([
        'eval',
        'run',
        EXAMPLE,
        '--agency',
        'demo',
        '--out',
        'all.json',
      ]);
      expect(failing.code).toBe(1);
      expect(failing.stdout).toMatch(/mentions-cost +live +.*0\.50!/);
      expect(failing.stdout).toContain('FAILED: mentions-cost/contains');
      expect(failing.stdout).toContain(
        'mentions-cost / contains: the answer lacks "cost per megawatt-hour" (threshold 1)',
      );
      // The same case above its threshold passes.
      const lenient = path.join(dir, 'lenient.jsonl');
      writeFileSync(
        lenient,
        `${JSON.stringify({ id: 'mentions-cost', input: 'Write a short brief about wave energy.', scorers: [{ type: 'contains', value: ['wave energy', 'cost per megawatt-hour'] }], thresholds: { contains: 0.5 } })}\n`,
      );
      expect((await colloquy(['eval', 'run', lenient, '--agency', 'demo'])).code).toBe(0);
      // Below the run threshold fails too.
      expect(
        (await colloquy(['eval', 'run', lenient, '--agency', 'demo', '--threshold', '0.6'])).code,
      ).toBe(1);
      expect(readdirSync(path.join(dir, 'evals')).filter((f) => f.endsWith('.json'))).toHaveLength(
        4,
      );
    },
    SLOW,
  );

  it(
    'captures a stored chat, replays it, and compares two runs',
    async () => {
      const store = new SqliteStore({ path: DB });
      const chat = await recordedDemoChat(
        dir,
        ['Write a short brief about tidal energy.', 'Now about wind power.'],
        store,
      );
      await store.close();
      const out = path.join(dir, 'captured.jsonl');
      const capture = await colloquy([
        'eval',
        'capture',
        '--chat',
        chat.chatId,
        '--recording',
        chat.recording,
        '--out',
        out,
        '--tag',
        'prod',
      ]);
      expect(capture.code, capture.stderr).toBe(0);
      expect(capture.stdout).toMatch(
        /^Captured case chat-.*-turn2 \(2 turns, 14 model calls\) into /,
      );
      const [captured] = (await loadDataset(out)).cases;
      expect(captured).toMatchObject({
        input: ['Write a short brief about tidal energy.', 'Now about wind power.'],
        expected: chat.answers[1],
        tags: ['prod'],
      });
      expect(existsSync(path.join(dir, captured!.cassette!))).toBe(true);
      const a = await colloquy([
        'eval',
        'run',
        out,
        '--agency',
        'demo',
        '--out',
        'a.json',
        '--repeat',
        '2',
      ]);
      expect(a.code, a.stdout + a.stderr).toBe(0);
      expect(a.stdout).toMatch(/replay +1\.00 +1\.00/);
      const b = await colloquy([
        'eval',
        'run',
        out,
        '--agency',
        path.join(root, 'examples', 'evals', 'editedDemo.ts'),
        '--out',
        'b.json',
        '--json',
      ]);
      expect(b.code).toBe(1);
      expect(JSON.parse(b.stdout).failures).toEqual([`${captured!.id}/error`]);
      const compared = await colloquy([
        'eval',
        'compare',
        'a.json',
        'b.json',
        '--fail-on-regression',
      ]);
      expect(compared.code).toBe(1);
      expect(compared.stdout).toMatch(
        new RegExp(`${captured!.id} +\\(mean\\) +1\\.00 +0\\.00 +-1\\.00`),
      );
      expect(compared.stdout).toContain(`regressed: ${captured!.id}`);
    },
    SLOW,
  );

  it(
    'says what is wrong with its flags',
    async () => {
      const none = await colloquy(['eval', 'run', EXAMPLE]);
      expect(none.stderr).toMatch(/Pass one of --agency demo\|MODULE\[#export\] or --ensemble/);
      expect(
        (await colloquy(['eval', 'run', EXAMPLE, '--agency', 'demo', '--threshold', '2'])).stderr,
      ).toMatch(/--threshold "2" is not a number from 0 to 1/);
      const missing = await colloquy([
        'eval',
        'capture',
        '--chat',
        'chat_x',
        '--out',
        'x.jsonl',
        '--store',
        'sqlite:nope.db',
      ]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/There is no Colloquy database at .*nope\.db/);
    },
    SLOW,
  );
});
