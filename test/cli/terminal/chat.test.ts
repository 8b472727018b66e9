import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { screenLines, startTerminal, type Terminal } from './tmux.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const fixture = (name: string) => path.join('test', 'cli', 'terminal', 'fixtures', name);
const started: Terminal[] = [];
const chat = async (name: string, module: string) => {
  const terminal = await startTerminal({
    name: `colloquy-chat-${name}-${process.pid}`,
    args: ['chat', fixture(module)],
    cwd: ROOT,
  });
  started.push(terminal);
  return terminal;
};
const atPrompt = (screen: string) => screenLines(screen).at(-1) === 'you ›';
const prompts = (screen: string) => screenLines(screen).filter((l) => l.startsWith('you ›'));

afterAll(async () => {
  await Promise.all(started.map((terminal) => terminal.kill()));
});

describe('colloquy chat in a terminal', { timeout: 90_000 }, () => {
  it('shows the prompt after each answer and after /trace output, and none after Bye.', async () => {
    const terminal = await chat('demo', 'demoChat.ts');
    await terminal.waitFor(atPrompt);
    await terminal.keys('Write about tides', 'Enter');
    let screen = await terminal.waitFor(
      (s) => s.includes('Here is your brief on tides') && atPrompt(s),
    );
    let lines = screenLines(screen);
    expect(prompts(screen)).toEqual(['you › Write about tides', 'you ›']);
    const asked = lines.indexOf('you › Write about tides');
    expect(lines.slice(asked + 1, asked + 5)).toEqual([
      expect.stringMatching(/^✓ Coordinator {2}\S+ m?s {2}45 tokens$/),
      expect.stringMatching(/^├─ ✓ Researcher /),
      expect.stringMatching(/^└─ ✓ Writer /),
      expect.stringMatching(/^ {3}└─ ✓ Editor /),
    ]);
    expect(lines.findIndex((l) => l.startsWith('Here is your brief'))).toBeGreaterThan(asked + 4);

    await terminal.keys('/trace', 'Enter');
    screen = await terminal.waitFor((s) => s.includes('you › /trace') && atPrompt(s));
    lines = screenLines(screen);
    const traced = lines.indexOf('you › /trace');
    expect(lines[traced + 1]).toMatch(/^agency demo {2}trace_\S+ /);
    expect(lines.slice(traced + 1, -1).some((l) => l.includes('you ›'))).toBe(false);
    expect(lines.slice(traced + 1, -1).some((l) => l.includes('send_message → Writer'))).toBe(true);

    await terminal.keys('/exit', 'Enter');
    screen = await terminal.waitFor((s) => s.includes('Bye.'));
    await terminal.waitForExit();
    lines = screenLines(await terminal.screen()).filter((l) => !l.startsWith('Pane is dead'));
    expect(lines.at(-2)).toBe('you › /exit');
    expect(lines.at(-1)).toMatch(/^Bye\. Continue with: colloquy chat \S+ --chat-id chat_\S+$/);
  });

  it('shows tool calls in the live tree, and Ctrl-D says Bye. on a line of its own', async () => {
    const terminal = await chat('tools', 'toolChat.ts');
    await terminal.waitFor(atPrompt);
    await terminal.keys('When is high water?', 'Enter');
    const screen = await terminal.waitFor((s) => s.includes('Tide answer:') && atPrompt(s));
    const lines = screenLines(screen);
    const asked = lines.indexOf('you › When is high water?');
    expect(lines.slice(asked + 1, asked + 4)).toEqual([
      expect.stringMatching(/^✓ Harbourmaster /),
      expect.stringMatching(/^├─ ✓ tool lookup_tides {2}\S+ m?s$/),
      expect.stringMatching(/^└─ ✓ Checker /),
    ]);
    expect(lines).toContain('Tide answer: confirmed: high water at Brest: 06:12');

    await terminal.keys('C-d');
    await terminal.waitForExit();
    const end = screenLines(await terminal.screen()).filter((l) => !l.startsWith('Pane is dead'));
    expect(end.at(-2)).toBe('you ›');
    expect(end.at(-1)).toMatch(/^Bye\. /);
  });
});
