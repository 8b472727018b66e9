/**
 * llm-orc's view of a run: `results.<agent>.{ response, status, error }` and `metadata`, added to
 * Colloquy's JSON result, and the `execution.json` / `execution.md` artifacts llm-orc writes under
 * `.llm-orc/artifacts/<ensemble>/<timestamp>/` (with a `latest` link).
 * @module
 */
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ConversationResult } from '../result.js';
import { responseText } from './scriptProtocol.js';

/** One agent's result, as llm-orc reports it. */
export interface LlmOrcAgentResult {
  response: string | null;
  status: 'success' | 'failed' | 'skipped';
  error?: string;
  stderr?: string;
}

/** The fields llm-orc's JSON output has. */
export interface LlmOrcView {
  ensemble: string;
  /** `completed`, `completed_with_errors`, or `failed` (the run itself stopped on an error). */
  status: 'completed' | 'completed_with_errors' | 'failed';
  input: { data: string };
  results: Record<string, LlmOrcAgentResult>;
  metadata: {
    duration: string;
    started_at: string;
    completed_at: string;
    agents_used: number;
    usage: {
      totals: {
        total_tokens: number;
        total_input_tokens: number;
        total_output_tokens: number;
        agents_count: number;
      };
    };
    completion_reason: string;
    run_id: string;
    turn_count: number;
  };
}

/** The failed agents of a result: its `error`, and any `failures` list the engine records. */
export function failuresOf(
  result: ConversationResult,
): Map<string, { message: string; stderr?: string }> {
  const out = new Map<string, { message: string; stderr?: string }>();
  const extra = (result as unknown as { failures?: unknown }).failures;
  if (Array.isArray(extra))
    for (const item of extra as { agent?: unknown; message?: unknown; stderr?: unknown }[])
      if (typeof item?.agent === 'string')
        out.set(item.agent, {
          message: String(item.message ?? 'failed'),
          ...(typeof item.stderr === 'string' ? { stderr: item.stderr } : {}),
        });
  if (result.error?.agent)
    out.set(result.error.agent, {
      message: result.error.message,
      ...(result.error.stderr ? { stderr: result.error.stderr } : {}),
    });
  return out;
}

/** Options of {@link llmOrcView}. */
export interface LlmOrcViewOptions {
  ensemble: string;
  /** Agent names in file order (agents that never ran are `skipped`). */
  agents: readonly string[];
  input: string;
  startedAt: Date;
  completedAt: Date;
}

/**
 * Builds llm-orc's `results` and `metadata` from a Colloquy result: each agent's latest output
 * as `response` text, failures with their message.
 */
export function llmOrcView(result: ConversationResult, options: LlmOrcViewOptions): LlmOrcView {
  const latest = new Map<string, Record<string, unknown>>();
  for (const turn of result.conversation_history) latest.set(turn.agent_name, turn.output_data);
  const failures = failuresOf(result);
  const results: Record<string, LlmOrcAgentResult> = {};
  for (const agent of options.agents) {
    const failure = failures.get(agent);
    if (failure)
      results[agent] = {
        response: null,
        status: 'failed',
        error: failure.message,
        ...(failure.stderr ? { stderr: failure.stderr } : {}),
      };
    else if (latest.has(agent))
      results[agent] = { response: responseText(latest.get(agent)), status: 'success' };
    else results[agent] = { response: null, status: 'skipped' };
  }
  const seconds = (options.completedAt.getTime() - options.startedAt.getTime()) / 1000;
  return {
    ensemble: options.ensemble,
    status:
      result.completion_reason === 'error' && result.error?.agent === null
        ? 'failed'
        : failures.size > 0
          ? 'completed_with_errors'
          : 'completed',
    input: { data: options.input },
    results,
    metadata: {
      duration: `${seconds.toFixed(2)}s`,
      started_at: options.startedAt.toISOString(),
      completed_at: options.completedAt.toISOString(),
      agents_used: options.agents.length,
      usage: {
        totals: {
          total_tokens: result.usage.total_tokens,
          total_input_tokens: result.usage.input_tokens,
          total_output_tokens: result.usage.output_tokens,
          agents_count: options.agents.length,
        },
      },
      completion_reason: result.completion_reason,
      run_id: result.run_id,
      turn_count: result.turn_count,
    },
  };
}

/** A Markdown report of a run (`execution.md`). */
export function executionMarkdown(view: LlmOrcView): string {
  const lines = [
    `# ${view.ensemble}`,
    '',
    `- Status: ${view.status}`,
    `- Started: ${view.metadata.started_at}`,
    `- Duration: ${view.metadata.duration}`,
    `- Run: ${view.metadata.run_id} (${view.metadata.turn_count} turns, ${view.metadata.completion_reason})`,
    '',
    '## Input',
    '',
    '```',
    view.input.data,
    '```',
    '',
    '## Agents',
  ];
  for (const [agent, result] of Object.entries(view.results)) {
    lines.push('', `### ${agent} (${result.status})`, '');
    const body =
      result.status === 'failed' ? `Error: ${result.error}` : (result.response ?? '(no output)');
    lines.push('```', body, '```');
  }
  return `${lines.join('\n')}\n`;
}

/** llm-orc's artifact timestamp: `YYYYMMDD-HHMMSS-mmm` (local time). */
export function artifactTimestamp(date: Date): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return (
    `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-` +
    `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}-${pad(date.getMilliseconds(), 3)}`
  );
}

/**
 * Writes `execution.json` (the whole JSON result) and `execution.md` under
 * `<projectDir>/.llm-orc/artifacts/<folder>/<ensemble>/<timestamp>/` and points `latest` at it.
 * Returns the directory.
 */
export async function writeArtifacts(options: {
  projectDir: string;
  ensemble: string;
  /** The ensemble's folder under `ensembles/` (llm-orc mirrors it), if any. */
  folder?: string;
  json: unknown;
  view: LlmOrcView;
  at: Date;
}): Promise<string> {
  const base = path.join(
    options.projectDir,
    '.llm-orc',
    'artifacts',
    ...(options.folder ? [options.folder] : []),
    options.ensemble,
  );
  const dir = path.join(base, artifactTimestamp(options.at));
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'execution.json'), `${JSON.stringify(options.json, null, 2)}\n`);
  await writeFile(path.join(dir, 'execution.md'), executionMarkdown(options.view));
  const latest = path.join(base, 'latest');
  await rm(latest, { force: true });
  // A filesystem without symlinks (some Windows setups) still gets the results, without "latest".
  await symlink(path.basename(dir), latest).catch(() => undefined);
  return dir;
}
