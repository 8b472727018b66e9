import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgencyResponse } from '../../src/agency/result.js';
import { createDemoAgency, DEMO_MESSAGE } from '../../src/demo/demoAgency.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { spawnColloquy, type CliRun } from './spawnCli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-cli-demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function colloquy(
  args: string[],
  options: { db?: string | null; cwd?: string } = {},
): Promise<CliRun> {
  return spawnColloquy(args, {
    cwd: options.cwd ?? dir,
    env: {
      COLLOQUY_DB: options.db === null ? undefined : (options.db ?? path.join(dir, 'demo.db')),
    },
  });
}

/** Model calls of the demo, counted in-process on the ScriptedModels themselves. */
async function demoModelCalls(): Promise<{ calls: number; result: AgencyResponse }> {
  const agency = createDemoAgency({ threads: new ThreadManager() });
  const result = await agency.getResponse(DEMO_MESSAGE);
  let calls = 0;
  for (const agent of agency.agents.values()) calls += (agent.model as ScriptedModel).calls.length;
  expect(agency.agents.size).toBe(4);
  return { calls, result };
}

/** Index of the first line matching `pattern` at or after `from`; -1 when none. */
const lineIndex = (lines: string[], pattern: RegExp, from = 0): number =>
  lines.findIndex((line, i) => i >= from && pattern.test(line));

describe('colloquy demo', { timeout: 60_000 }, () => {
  it('runs offline on the default store and prints the nested transcript, thread ids and usage', async () => {
    const cwd = mkdtempSync(path.join(dir, 'cwd-'));
    const run = await colloquy(['demo'], { db: null, cwd });
    // Off a terminal, stderr has one progress line per finished agent run and nothing else.
    expect(run.stderr.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^✓ Researcher \(asked by Coordinator\) .* 15 tokens$/),
      expect.stringMatching(/^✓ Editor \(asked by Writer\) .* 15 tokens$/),
      expect.stringMatching(/^✓ Writer \(asked by Coordinator\) .* 30 tokens$/),
      expect.stringMatching(/^✓ Coordinator .* 45 tokens$/),
    ]);
    expect(run.code).toBe(0);
    expect(existsSync(path.join(cwd, '.colloquy', 'colloquy.db'))).toBe(true);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('Conversation');
    expect(lines[1]).toBe(`  user → Coordinator: ${DEMO_MESSAGE}`);
    // Depth shows as indentation: 4 spaces for the Coordinator, 6 for its callees, 8 for the Editor.
    const order = [
      /^ {4}Coordinator → Researcher: Find three key facts about tidal energy\.$/,
      /^ {6}Researcher → Coordinator: \(1\) tidal energy is predictable/,
      /^ {4}Coordinator → Writer: Write a short brief on tidal energy/,
      /^ {6}Writer → Editor: Please tighten this draft:/,
      /^ {8}Editor → Writer: tidal energy is predictable years ahead\. /,
      /^ {6}Writer → Coordinator: tidal energy is predictable years ahead\. /,
      /^ {4}Coordinator → user: Here is your brief on tidal energy:$/,
    ];
    let at = 0;
    for (const pattern of order) {
      const found = lineIndex(lines, pattern, at);
      expect(found, String(pattern)).toBeGreaterThan(at);
      at = found;
    }
    const chat = /^Threads \(chat (chat_[0-9a-f-]{36}), store: sqlite\)$/m.exec(run.stdout)?.[1];
    expect(chat).toBeDefined();
    expect(lines[lineIndex(lines, /^Threads /) + 1]).toMatch(/^ {2}thread +items$/);
    const threadLines = lines.slice(
      lineIndex(lines, /^Threads /) + 2,
      lineIndex(lines, /^Usage$/) - 1,
    );
    expect(threadLines.map((l) => l.trim().split(/\s+/).slice(0, 2))).toEqual([
      [`${chat}__Coordinator__Researcher`, '2'],
      [`${chat}__Coordinator__USER`, '6'],
      [`${chat}__Coordinator__Writer`, '4'],
      [`${chat}__Editor__Writer`, '2'],
    ]);
    expect(lines[lineIndex(lines, /^Usage$/) + 1]).toMatch(/^ {2}agent +requests +input/);
    const usage = lines.slice(lineIndex(lines, /^Usage$/) + 2).filter((l) => l.trim() !== '');
    expect(usage.map((l) => l.trim().split(/\s+/))).toEqual([
      ['Researcher', '1', '10', '5', '15'],
      ['Editor', '1', '10', '5', '15'],
      ['Writer', '2', '20', '10', '30'],
      ['Coordinator', '3', '30', '15', '45'],
      ['total', '7', '70', '35', '105'],
    ]);
  });

  it('--json prints the result, whose usage.requests equals the number of model calls', async () => {
    const { calls, result } = await demoModelCalls();
    expect(result.usage.requests).toBe(calls);
    const run = await colloquy(['demo', '--json']);
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as AgencyResponse;
    expect(printed.usage).toEqual({
      requests: calls,
      inputTokens: 10 * calls,
      outputTokens: 5 * calls,
      totalTokens: 15 * calls,
    });
    expect(calls).toBe(7);
    expect(printed.finalOutput).toBe(result.finalOutput);
    expect(printed.lastAgent).toBe('Coordinator');
    const shape = (r: AgencyResponse) =>
      r.newItems.map((i) => [i.agent, i.callerAgent, i.depth, i.item.type]);
    expect(shape(printed)).toEqual(shape(result));
  });

  it('--chat-id run twice continues the chat and shows the earlier history', async () => {
    const db = path.join(dir, 'continued.db');
    const first = await colloquy(['demo', '--chat-id', 'X'], { db });
    expect(first.code).toBe(0);
    expect(first.stdout).not.toContain('Earlier in chat');
    const second = await colloquy(
      ['demo', 'Write a short brief about wave power.', '--chat-id', 'X'],
      { db },
    );
    expect(second.code).toBe(0);
    const lines = second.stdout.split('\n');
    expect(lines[0]).toBe('Earlier in chat X (6 items in X__Coordinator__USER)');
    expect(lines[1]).toBe(`  user → Coordinator: ${DEMO_MESSAGE}`);
    expect(lines[2]).toBe('    Coordinator → Researcher: Find three key facts about tidal energy.');
    expect(
      lineIndex(lines, /^ {4}Coordinator → user: Here is your brief on tidal energy:$/),
    ).toBeGreaterThan(2);
    const conversation = lineIndex(lines, /^Conversation$/);
    expect(lines[conversation + 1]).toBe(
      '  user → Coordinator: Write a short brief about wave power.',
    );
    expect(
      lineIndex(lines, /^ {4}Coordinator → user: Here is your brief on wave power:$/, conversation),
    ).toBeGreaterThan(conversation);
    expect(second.stdout).toMatch(/^ {2}thread +items$/m);
    expect(second.stdout).toMatch(/^ {2}X__Coordinator__USER\s+12$/m);
    expect(second.stdout).toMatch(/^ {2}X__Editor__Writer\s+4$/m);
  });

  it('--model without OPENAI_API_KEY exits 1 naming the variable', async () => {
    const run = await colloquy(['demo', '--model', 'gpt-4.1-mini']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^colloquy: error \[CONFIG_INVALID\]: --model gpt-4\.1-mini .*OPENAI_API_KEY is not set/,
    );
  });

  it('--log-level with an unknown level fails naming the levels', async () => {
    const run = await colloquy(['--log-level', 'nope', 'demo']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      '--log-level "nope" is not a level. Use one of: fatal, error, warn, info, debug, trace, silent.',
    );
  });
});
