/**
 * Helpers of the scale-out tests and benchmark: a throwaway project (the fixture agencies, a
 * scripted ensemble, its script agent), `colloquy serve` / `colloquy worker` child processes, and
 * the normalised form of thread items that two runs of the same calls must share.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ThreadItem } from '../../src/stores/item.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { liveThreads } from '../../src/threads/chatHistory.js';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'colloquy.js');

/** The ensemble every queued run uses: a script agent, a scripted LLM, a script agent. */
export const PIPELINE_YAML = `name: pipeline
description: Two script steps around a scripted writer.
default_task: tides
agents:
  - name: gather
    script: ./scripts/step.sh
  - name: writer
    model_profile: scripted-writer
    system_prompt: Write one sentence.
    depends_on: [gather]
  - name: review
    script: ./scripts/step.sh
    depends_on: [writer]
conversation_limits:
  max_total_turns: 6
  timeout_seconds: 60
`;

/** An ensemble of three scripted LLM agents in a row: no waiting, only Colloquy's own work. */
export const CHAIN_YAML = `name: chain
description: Three scripted writers, one after the other.
default_task: tides
agents:
  - name: first
    model_profile: scripted-writer
  - name: second
    model_profile: scripted-writer
    depends_on: [first]
  - name: third
    model_profile: scripted-writer
    depends_on: [second]
conversation_limits:
  max_total_turns: 6
  timeout_seconds: 60
`;

/** Writes the project; returns its directory (holding colloquy.yaml). */
export function writeProject(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-scale-'));
  mkdirSync(path.join(dir, 'ensembles', 'scripts'), { recursive: true });
  writeFileSync(
    path.join(dir, 'colloquy.yaml'),
    [
      `agencies: ${JSON.stringify(path.join(ROOT, 'test', 'queue', 'fixtures', 'agencies.ts'))}`,
      'ensembles_dir: ensembles',
      'profiles:',
      '  scripted-writer:',
      '    provider: scripted',
      '    model: writer',
      '    script:',
      "      - 'Tides are the most predictable renewable source.'",
      '',
    ].join('\n'),
  );
  writeFileSync(path.join(dir, 'ensembles', 'pipeline.yaml'), PIPELINE_YAML);
  writeFileSync(path.join(dir, 'ensembles', 'chain.yaml'), CHAIN_YAML);
  const script = path.join(dir, 'ensembles', 'scripts', 'step.sh');
  // Reads its input, takes a moment (a step a worker can die in), answers with fixed data.
  writeFileSync(
    script,
    '#!/bin/sh\ncat >/dev/null\nsleep 0.1\necho \'{"success": true, "data": {"checked": true}}\'\n',
  );
  chmodSync(script, 0o755);
  return dir;
}

/** A running `colloquy` child process. */
export interface Child {
  readonly process: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves once the process has exited. */
  readonly exited: Promise<number | null>;
}

/** Starts `colloquy ...args` in `cwd` and resolves once its output matches `ready`. */
export async function startColloquy(
  args: string[],
  cwd: string,
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<Child & { match: RegExpMatchArray }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setInterval(() => {
      const found = ready.exec(output);
      if (found) {
        clearInterval(timer);
        resolve(found);
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`colloquy ${args[0]} exited (${code}) before it was ready:\n${output}`));
    });
  });
  return { process: child, output: () => output, exited, match };
}

/** Starts a queued server; resolves with its URL. */
export async function startServer(
  project: string,
  queue: string,
  store: string,
  prefix: string,
): Promise<Child & { url: string }> {
  const child = await startColloquy(
    [
      'serve',
      '--port',
      '0',
      '--no-demo',
      '--queue',
      queue,
      '--store',
      store,
      '--queue-prefix',
      prefix,
    ],
    project,
    /listening on (http:\/\/\S+)/,
  );
  return { ...child, url: child.match[1]! };
}

/** Starts a worker. */
export function startWorker(
  project: string,
  queue: string,
  store: string,
  prefix: string,
  extra: string[] = [],
): Promise<Child> {
  return startColloquy(
    ['worker', '--no-demo', '--queue', queue, '--store', store, '--queue-prefix', prefix, ...extra],
    project,
    /Colloquy worker worker_/,
  );
}

/** What must be equal between two runs of the same calls: everything but ids and times. */
export function normalise(items: readonly ThreadItem[]): string[] {
  return items.map((entry) => {
    const {
      id: _id,
      callId: _callId,
      providerData: _p,
      ...rest
    } = entry.item as Record<string, unknown>;
    return JSON.stringify(rest);
  });
}

/** Every live thread of a chat, normalised (see {@link normalise}), by thread id. */
export async function threadsOf(
  store: ThreadStore,
  chatId: string,
): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const record of await liveThreads(store, chatId))
    out[record.threadId] = normalise(await store.readItems(record.threadId));
  return out;
}

/** POSTs JSON and returns the status and parsed body. */
export async function postJson(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
