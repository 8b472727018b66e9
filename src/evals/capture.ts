/**
 * Capture: a stored conversation becomes a case that replays offline, bit for bit.
 *
 * What a run keeps: the thread store has every item of every thread (user messages, each
 * model's outputs, tool calls and results, with the run that produced them); traces keep the
 * model name, tokens and timings of each model call, not its request or response. The model
 * calls themselves are kept only by a recording (`COLLOQUY_RECORD=FILE`, or a
 * {@link RecordingModel}), which holds the calls of every chat of the process, unlabelled.
 * Capture therefore takes the chat's turns and answer from the thread store, and picks from the
 * recording exactly the model calls whose outputs are items of those turns (matched by item id,
 * call id, name, arguments and text). An output of the chat that no recorded call produced is
 * reported, with what to turn on.
 * @module
 */
import { readEnv } from '../env.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ColloquyError, ConfigError } from '../errors.js';
import { Cassette, type CassetteInteraction } from '../models/cassette.js';
import type { ThreadItem } from '../stores/item.js';
import type { TraceStore } from '../stores/traceStore.js';
import type { ThreadStore } from '../stores/types.js';
import { appendCase, loadDataset } from './dataset.js';
import type { EvalCase } from './types.js';

/** Options of {@link captureCase}. */
export interface CaptureOptions {
  /** The store holding the chat. */
  store: ThreadStore;
  chatId: string;
  /** The turn to end the case with (default: the chat's last); needs `traces`. */
  traceId?: string;
  /** Where traces are (to find `traceId`'s run). */
  traces?: TraceStore;
  /** The cassette the run was recorded into (default `$COLLOQUY_RECORD`). */
  recording?: string;
  /** The dataset (`.jsonl`) the case is appended to; its cassette goes beside it. */
  out: string;
  /** The case id (default `chat-…` from the chat id). */
  id?: string;
  tags?: string[];
  env?: NodeJS.ProcessEnv;
}

/** What {@link captureCase} wrote. */
export interface CaptureResult {
  case: EvalCase;
  /** The case's cassette (absolute path). */
  cassette: string;
  /** Model calls in it. */
  interactions: number;
}

interface Turn {
  runId: string;
  text: string;
  answer: string | undefined;
  createdAt: string;
}

function textOf(item: unknown): string {
  const content = (item as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
}

/** A stable identity of a model output item, the same in a recording and in a thread. */
export function outputSignature(item: unknown): string {
  const record = item as Record<string, unknown>;
  if (record.type === 'function_call')
    return `call|${String(record.callId)}|${String(record.name)}|${String(record.arguments)}`;
  if (record.role === 'assistant') return `message|${String(record.id ?? '')}|${textOf(record)}`;
  return `${String(record.type)}|${String(record.id ?? JSON.stringify(record))}`;
}

/** Whether a thread item was produced by a model (not a user message or a tool's result). */
function isModelOutput(item: unknown): boolean {
  const record = item as { role?: string; type?: string };
  if (record.role === 'user' || record.role === 'system' || record.role === 'developer')
    return false;
  return !(typeof record.type === 'string' && record.type.endsWith('_result'));
}

function outputsOf(interaction: CassetteInteraction): unknown[] {
  if (interaction.response) return interaction.response.output;
  const done = (interaction.events ?? []).find(
    (event) => (event as { type?: string }).type === 'response_done',
  ) as { response?: { output?: unknown[] } } | undefined;
  return done?.response?.output ?? [];
}

async function chatItems(store: ThreadStore, chatId: string): Promise<ThreadItem[]> {
  const threads = await store.listThreads({ chatId });
  if (threads.length === 0)
    throw new ConfigError(
      `There is no chat "${chatId}" in the ${store.kind} store. List chats with colloquy threads list (and check --store).`,
    );
  const all: ThreadItem[] = [];
  for (const thread of threads) all.push(...(await store.readItems(thread.threadId)));
  return all;
}

function turnsOf(items: ThreadItem[]): Turn[] {
  const turns = new Map<string, Turn>();
  for (const { item, meta } of items) {
    if (!meta || meta.callerAgent !== null) continue;
    const role = (item as { role?: string }).role;
    let turn = turns.get(meta.runId);
    if (role === 'user' && !turn) {
      turn = {
        runId: meta.runId,
        text: textOf(item),
        answer: undefined,
        createdAt: meta.createdAt,
      };
      turns.set(meta.runId, turn);
    } else if (role === 'assistant' && turn) turn.answer = textOf(item);
  }
  return [...turns.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

async function chosenTurn(turns: Turn[], options: CaptureOptions): Promise<number> {
  if (!options.traceId) return turns.length - 1;
  if (!options.traces)
    throw new ConfigError(`--trace ${options.traceId} needs the trace store; none was given.`);
  const stored = await options.traces.getTrace(options.traceId);
  if (!stored)
    throw new ColloquyError(
      'TRACE_NOT_FOUND',
      `There is no trace "${options.traceId}". List them with colloquy traces list --chat-id ${options.chatId}.`,
    );
  if (stored.trace.chatId !== options.chatId)
    throw new ConfigError(
      `Trace ${options.traceId} belongs to chat ${stored.trace.chatId ?? '(none)'}, not ${options.chatId}. Pass the trace of a turn of this chat.`,
    );
  const index = turns.findIndex((turn) => turn.runId === stored.trace.runId);
  if (index < 0)
    throw new ConfigError(
      `Trace ${options.traceId}'s run ${stored.trace.runId} has no user message in chat ${options.chatId}.`,
    );
  return index;
}

function notRecorded(chatId: string, detail: string): ConfigError {
  return new ConfigError(
    `Cannot capture chat ${chatId}: ${detail} Traces keep each model call's model, tokens and timing, not its request and response, ` +
      'so the calls must come from a recording: run the agency with COLLOQUY_RECORD=FILE (profile models) or models wrapped in RecordingModel, ' +
      'then pass that file with --recording FILE.',
  );
}

/** Appends the case a stored chat makes to a dataset, and writes its cassette beside it. */
export async function captureCase(options: CaptureOptions): Promise<CaptureResult> {
  const env = options.env ?? process.env;
  if (!/\.jsonl$/i.test(options.out))
    throw new ConfigError(
      `--out ${options.out}: capture appends to a .jsonl dataset. Name one ending in .jsonl.`,
    );
  const items = await chatItems(options.store, options.chatId);
  const turns = turnsOf(items);
  if (turns.length === 0)
    throw new ConfigError(`Chat ${options.chatId} has no user message to make a case from.`);
  const last = await chosenTurn(turns, options);
  const kept = turns.slice(0, last + 1);
  const answer = kept.at(-1)!.answer;
  if (answer === undefined)
    throw new ConfigError(
      `Turn ${last + 1} of chat ${options.chatId} has no final answer (it failed or stopped). Pick another with --trace.`,
    );
  // Every run under the kept turns: top-level runs and the runs they started, at any depth.
  const runs = new Set(kept.map((turn) => turn.runId));
  for (let grew = true; grew;) {
    grew = false;
    for (const { meta } of items)
      if (meta?.parentRunId && runs.has(meta.parentRunId) && !runs.has(meta.runId)) {
        runs.add(meta.runId);
        grew = true;
      }
  }
  const outputs = items.filter(
    (entry) => entry.meta && runs.has(entry.meta.runId) && isModelOutput(entry.item),
  );
  const wanted = new Set(outputs.map((entry) => outputSignature(entry.item)));
  const recording = options.recording ?? readEnv('COLLOQUY_RECORD', env);
  if (!recording) throw notRecorded(options.chatId, 'no recording was given.');
  if (!existsSync(recording))
    throw notRecorded(options.chatId, `the recording ${recording} does not exist.`);
  const source = Cassette.load(recording);
  const covered = new Set<string>();
  const matched = source.interactions.filter((interaction) => {
    const signatures = outputsOf(interaction).map(outputSignature);
    if (signatures.length === 0 || !signatures.every((s) => wanted.has(s))) return false;
    for (const s of signatures) covered.add(s);
    return true;
  });
  const missing = outputs.filter((entry) => !covered.has(outputSignature(entry.item)));
  if (missing.length > 0) {
    const agents = [...new Set(missing.map((entry) => entry.meta!.agent))].join(', ');
    throw notRecorded(
      options.chatId,
      `${missing.length} of ${outputs.length} model outputs of its turns (agents: ${agents}) are not in the recording ${recording}.`,
    );
  }
  const existing = existsSync(options.out)
    ? (await loadDataset(options.out)).cases.map((c) => c.id)
    : [];
  const base =
    options.id ?? `chat-${options.chatId.replace(/^chat_/, '').slice(0, 8)}-turn${last + 1}`;
  let id = base;
  for (let n = 2; existing.includes(id); n++) id = `${base}-${n}`;
  if (options.id && id !== options.id)
    throw new ConfigError(
      `${options.out} already has a case "${options.id}". Choose another --id.`,
    );
  const dataset = path.resolve(options.out);
  const relative = `${path.basename(dataset, '.jsonl')}.cassettes/${id}.cassette.json`;
  const cassetteFile = path.join(path.dirname(dataset), relative);
  await new Cassette(cassetteFile, matched).save();
  const item: EvalCase = {
    id,
    input: kept.length === 1 ? kept[0]!.text : kept.map((turn) => turn.text),
    expected: answer,
    ...(options.tags?.length ? { tags: options.tags } : {}),
    cassette: relative,
    source: {
      chatId: options.chatId,
      ...(options.traceId ? { traceId: options.traceId } : {}),
      capturedAt: new Date().toISOString(),
    },
  };
  await appendCase(dataset, item);
  return { case: item, cassette: cassetteFile, interactions: matched.length };
}
