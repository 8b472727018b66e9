/**
 * Runs the real CLI (`bin/colloquy.js`) in a child process, as a user's shell would, with an
 * environment that never reaches the network: no OpenAI key, no OTLP endpoint, no log level
 * inherited from the developer's shell.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Where the CLI's entry is. */
export const BIN = fileURLToPath(new URL('../../bin/colloquy.js', import.meta.url));

/** What one CLI run printed and how it exited. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link spawnColloquy}. */
export interface SpawnCliOptions {
  /** The working directory (default: this process's). */
  cwd?: string;
  /** Variables to set; `undefined` removes one. */
  env?: Record<string, string | undefined>;
}

const SCRUBBED = [
  'OPENAI_API_KEY',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'COLLOQUY_LOG_LEVEL',
];

/** Runs `colloquy ARGS` and resolves when it exits. */
export function spawnColloquy(args: string[], options: SpawnCliOptions = {}): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SCRUBBED) delete env[name];
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env,
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
