/**
 * Drives the real CLI in a real pseudo-terminal: a detached tmux session of a fixed size on its
 * own server (`tmux -L NAME`), keys sent with `send-keys`, the screen read with `capture-pane`.
 * Waits poll the screen; nothing sleeps a fixed time.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BIN } from '../spawnCli.js';

const run = promisify(execFile);

/** A CLI running in its own tmux server. */
export interface Terminal {
  /** Types keys (`send-keys` arguments: text, or names such as `Enter`, `C-d`). */
  keys(...keys: string[]): Promise<void>;
  /** The screen as text (wrapped lines joined); `colour` keeps the escape sequences. */
  screen(options?: { colour?: boolean }): Promise<string>;
  /** Polls the screen until `done` holds; fails with the last screen after `timeoutMs`. */
  waitFor(done: (screen: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Polls until the CLI has exited (the pane stays, so its last screen can be read). */
  waitForExit(timeoutMs?: number): Promise<void>;
  /** Kills the tmux server. */
  kill(): Promise<void>;
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * Starts `colloquy ARGS` in a detached `width`×`height` tmux session on the server `name`.
 * The environment never reaches the network (no OpenAI key, no OTLP endpoint).
 */
export async function startTerminal(options: {
  name: string;
  args: string[];
  cwd: string;
  env?: Record<string, string | undefined>;
  width?: number;
  height?: number;
}): Promise<Terminal> {
  const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm-256color' };
  for (const name of ['OPENAI_API_KEY', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'NO_COLOR', 'FORCE_COLOR'])
    delete env[name];
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const tmux = (...args: string[]) =>
    run('tmux', ['-L', options.name, '-f', '/dev/null', ...args], { env, cwd: options.cwd });
  const command = [process.execPath, BIN, ...options.args].map(quote).join(' ');
  // remain-on-exit is set in the same client call, long before node has even started.
  await tmux(
    'new-session',
    '-d',
    '-x',
    String(options.width ?? 160),
    '-y',
    String(options.height ?? 50),
    command,
    ';',
    'set-option',
    '-w',
    'remain-on-exit',
    'on',
  );
  const screen = async ({ colour = false } = {}) =>
    (await tmux('capture-pane', '-p', '-J', ...(colour ? ['-e'] : []), '-S', '-200')).stdout;
  return {
    async keys(...keys) {
      await tmux('send-keys', ...keys);
    },
    screen,
    async waitFor(done, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      while (Date.now() < deadline) {
        last = await screen();
        if (done(last)) return last;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`The terminal never showed what the test waits for. Last screen:\n${last}`);
    },
    async waitForExit(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const dead = await tmux('display-message', '-p', '#{pane_dead}');
        if (dead.stdout.trim() === '1') return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`The CLI did not exit. Last screen:\n${await screen()}`);
    },
    async kill() {
      await tmux('kill-server').catch(() => undefined);
    },
  };
}

/** The screen's non-empty lines, trailing spaces removed. */
export function screenLines(screen: string): string[] {
  return screen
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '');
}
