/**
 * Model calls through the step journal. Each run of an agency call numbers its model calls; a
 * finished call is journaled under (run path, number) with a hash of its input. On a retry the
 * same call, asked with the same input, is answered from the journal (streamed as text deltas
 * then `response_done`, as a live model would), and the wrapped model is not asked.
 * @module
 */
import { createHash } from 'node:crypto';
import { Usage } from '@openai/agents-core';
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents-core';
import { getDefaultLogger } from '../../logger.js';
import { toRecordedResponse } from '../../models/recordingModel.js';
import type { RunFrame } from '../call.js';
import { currentScope, withScope } from './callScope.js';
import type { ModelEntry } from './schema.js';
import type { StepJournal } from './stepJournal.js';

/** Runs `work` (one `Runner.run`) as `frame`'s run: its model calls are journaled under its path. */
export function withJournalFrame<T>(frame: RunFrame, work: () => Promise<T>): Promise<T> {
  return frame.call.journal ? withScope({ frame }, work) : work();
}

/** The journal path of a run: the entry agent, then `/<send_message call id>>Recipient` per level. */
export function journalPath(frame: RunFrame): string {
  return frame.journalPath ?? frame.agent;
}

/** sha256 of a request's input items (hex): equal inputs, equal hashes. */
export function inputHash(request: ModelRequest): string {
  return createHash('sha256').update(JSON.stringify(request.input)).digest('hex');
}

const JOURNALED = Symbol('colloquy.journaledModel');

interface Step {
  journal: StepJournal;
  key: string;
  path: string;
  hash: string;
  hit: ModelEntry | undefined;
}

/** A model that answers from the step journal when the call has one and the step finished before. */
class JournaledModel implements Model {
  readonly inner: Model;
  readonly [JOURNALED] = true;

  constructor(inner: Model) {
    this.inner = inner;
  }

  /** The wrapped model's name (trace labels read it). */
  get name(): unknown {
    return (this.inner as { name?: unknown }).name;
  }

  get supportsPromptModelSelection(): boolean | undefined {
    return this.inner.supportsPromptModelSelection;
  }

  async #step(request: ModelRequest): Promise<Step | undefined> {
    const frame = currentScope().frame;
    const journal = frame?.call.journal;
    if (!frame || !journal) return undefined;
    const path = journalPath(frame);
    const key = `${path}#model${journal.next(`${path}#model`)}`;
    const hash = inputHash(request);
    const found = await journal.lookup(
      key,
      (entry) => entry.kind === 'model' && entry.inputHash === hash,
    );
    if (found?.kind === 'model') return { journal, key, path, hash, hit: found };
    if ((await journal.entries()).has(key)) {
      getDefaultLogger().warn(
        { component: 'journal', callId: journal.callId, step: key },
        `Step journal of call ${journal.callId}: model step ${key} was asked with another input than the journaled one; it runs live.`,
      );
    }
    return { journal, key, path, hash, hit: undefined };
  }

  getResponse(request: ModelRequest): Promise<ModelResponse> {
    // Outside a journaled call: the wrapped model's own promise, without async frames.
    if (!currentScope().frame?.call.journal) return this.inner.getResponse(request);
    return this.#journaledResponse(request);
  }

  async #journaledResponse(request: ModelRequest): Promise<ModelResponse> {
    const step = await this.#step(request);
    if (step?.hit) return responseOf(step.hit);
    const response = await this.inner.getResponse(request);
    if (step) {
      const recorded = toRecordedResponse(response);
      const usage = { ...recorded.usage, requests: recorded.usage.requests ?? 1 };
      await step.journal.record(entryOf(step, { ...recorded, usage }));
    }
    return response;
  }

  getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    // Outside a journaled call: the wrapped model's own stream, not re-yielded event by event.
    if (!currentScope().frame?.call.journal) return this.inner.getStreamedResponse(request);
    return this.#journaledStream(request);
  }

  async *#journaledStream(request: ModelRequest): AsyncIterable<StreamEvent> {
    const step = await this.#step(request);
    if (step?.hit) {
      yield* replayStream(step.hit);
      return;
    }
    for await (const event of this.inner.getStreamedResponse(request)) {
      if (step && event.type === 'response_done') {
        const { usage, output, id } = event.response;
        await step.journal.record(
          entryOf(step, {
            output: JSON.parse(JSON.stringify(output)) as unknown[],
            usage: {
              requests: usage.requests ?? 1,
              inputTokens: usage.inputTokens ?? 0,
              outputTokens: usage.outputTokens ?? 0,
              totalTokens: usage.totalTokens ?? 0,
            },
            ...(id ? { responseId: id } : {}),
          }),
        );
      }
      yield event;
    }
  }
}

function entryOf(step: Step, response: ModelEntry['response']) {
  return {
    kind: 'model' as const,
    key: step.key,
    path: step.path,
    inputHash: step.hash,
    response,
  };
}

function responseOf(entry: ModelEntry): ModelResponse {
  const { output, usage, responseId } = entry.response;
  return {
    output: output as ModelResponse['output'],
    usage: new Usage(usage),
    ...(responseId !== undefined ? { responseId } : {}),
  };
}

async function* replayStream(entry: ModelEntry): AsyncIterable<StreamEvent> {
  const { output, usage, responseId } = entry.response;
  yield { type: 'response_started' };
  for (const item of output as Array<{ type?: string; content?: unknown }>) {
    if (item.type !== 'message' || !Array.isArray(item.content)) continue;
    for (const part of item.content as Array<{ type?: string; text?: unknown }>) {
      if (part.type === 'output_text' && typeof part.text === 'string' && part.text !== '') {
        yield { type: 'output_text_delta', delta: part.text };
      }
    }
  }
  yield {
    type: 'response_done',
    response: {
      id: responseId ?? 'journaled',
      usage,
      output: output as Extract<StreamEvent, { type: 'response_done' }>['response']['output'],
    },
  };
}

/** Wraps `model` so that its calls go through the step journal of the agency call (once). */
export function journaledModel(model: Model): Model {
  if ((model as { [JOURNALED]?: boolean })[JOURNALED]) return model;
  return new JournaledModel(model);
}
