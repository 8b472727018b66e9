/**
 * State of one agency call (a `getResponse` or `getResponseStream`) and of each run inside it.
 * A run's frame is looked up from the SDK `RunContext` the run was started with, so concurrent
 * runs (parallel tool calls, concurrent chats) never share mutable state.
 * @module
 */
import type { FunctionTool, JsonSchemaDefinition, RunContext } from '@openai/agents-core';
import type { AgencyMemory } from '../memory/agencyMemory.js';
import type { ConversationThread } from '../threads/conversationThread.js';
import type { ApprovalDecisions } from './approvals.js';
import { activeStepJournal, type StepJournal } from './journal/stepJournal.js';
import type { AgencyStreamEvent, RunTag } from './events.js';
import { addUsage, emptyUsage, orderItems, type FinishedRun, type TaggedItem } from './result.js';
import type { Usage } from '../usage.js';

/** Everything shared by the runs of one agency call. */
export class AgencyCall {
  readonly chatId: string;
  readonly context: unknown;
  readonly signal: AbortSignal | undefined;
  readonly maxTurns: number | undefined;
  /** The person the call is for (the scope of its memory), if named. */
  readonly userId: string | undefined;
  /** The agency's memory, when it has one. */
  readonly memory: AgencyMemory | undefined;
  /** Decisions on pending tool calls, when this call resumes an interrupted one. */
  readonly decisions: ApprovalDecisions | undefined;
  /** Outputs of client tool calls (by call id), when this call resumes one that called them. */
  readonly toolOutputs: Readonly<Record<string, string>> | undefined;
  readonly usage: Usage = emptyUsage();
  /**
   * The step journal of the call (from `withStepJournal`, as queue workers run every call), or
   * undefined: finished steps are recorded there, and replayed from it on a retry.
   */
  readonly journal: StepJournal | undefined = activeStepJournal();
  readonly #emit: ((event: AgencyStreamEvent) => void) | undefined;
  readonly #runs: FinishedRun[] = [];
  readonly #unsaved = new Set<ConversationThread>();
  #nowMs = -1;
  #nowIso = '';
  #secondMs = -1;
  /** `YYYY-MM-DDTHH:MM:SS.` of `#secondMs`. */
  #secondIso = '';

  constructor(options: {
    chatId: string;
    context?: unknown;
    signal?: AbortSignal;
    maxTurns?: number;
    userId?: string;
    memory?: AgencyMemory;
    decisions?: ApprovalDecisions;
    toolOutputs?: Record<string, string>;
    emit?: (event: AgencyStreamEvent) => void;
  }) {
    this.chatId = options.chatId;
    this.context = options.context;
    this.signal = options.signal;
    this.maxTurns = options.maxTurns;
    this.userId = options.userId;
    this.memory = options.memory;
    this.decisions = options.decisions;
    this.toolOutputs = options.toolOutputs;
    this.#emit = options.emit;
  }

  /**
   * The time now as an ISO string (`toISOString`), for item metadata. A round trip stamps several
   * items: the date and time are formatted once per second of the call, the milliseconds added.
   */
  now(): string {
    const ms = Date.now();
    if (ms === this.#nowMs) return this.#nowIso;
    const second = ms - (ms % 1000);
    if (second !== this.#secondMs) {
      this.#secondMs = second;
      this.#secondIso = new Date(second).toISOString().slice(0, -4);
    }
    const millis = ms - second;
    this.#nowMs = ms;
    this.#nowIso = `${this.#secondIso}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
    return this.#nowIso;
  }

  /** Whether events are streamed to a consumer. */
  get streaming(): boolean {
    return this.#emit !== undefined;
  }

  emit(event: AgencyStreamEvent): void {
    this.#emit?.(event);
  }

  /**
   * Marks a thread as holding items of this call to save. The agency saves them all when the call
   * ends (finished, stopped or failed), in one store transaction where the store allows.
   */
  deferSave(thread: ConversationThread): void {
    this.#unsaved.add(thread);
  }

  /** The threads with items of this call still to save, in the order they were marked. */
  unsavedThreads(): ConversationThread[] {
    const threads = [...this.#unsaved];
    this.#unsaved.clear();
    return threads;
  }

  /** Records a finished run's items for the call's `newItems`. */
  recordRun(run: FinishedRun): void {
    this.#runs.push(run);
  }

  /** Every generated item of the call tree, in conversation order. */
  items(rootRunId: string): TaggedItem[] {
    return orderItems(this.#runs, rootRunId);
  }

  addUsage(usage: Usage): void {
    addUsage(this.usage, usage);
  }
}

/** One run of one agent inside an agency call. */
export interface RunFrame extends RunTag {
  call: AgencyCall;
  /** The caller's send_message callId that started this run, or null at the top level. */
  viaCallId: string | null;
  /** Extra instructions for this run only. */
  additionalInstructions: string | undefined;
  /** A structured output for this run only (the entry point's, from `getResponse`). */
  outputType?: JsonSchemaDefinition | undefined;
  /** The caller's client tools, for this run only (the entry point's, from `getResponse`). */
  clientTools?: FunctionTool<any, any, string>[] | undefined;
  /** `sender\0recipient` pairs this run is waiting on now (one message per pair at a time). */
  inFlight: Set<string>;
  /** The run's place in the call for the step journal (default: the agent's name, at the top). */
  journalPath?: string;
}

const frames = new WeakMap<RunContext<unknown>, RunFrame>();

/** Binds a frame to the RunContext its run is started with. */
export function bindFrame(context: RunContext<unknown>, frame: RunFrame): void {
  frames.set(context, frame);
}

/** The frame of the run a tool or instructions function is called from, if it is an agency run. */
export function frameOf(context: RunContext<unknown> | undefined): RunFrame | undefined {
  return context ? frames.get(context) : undefined;
}

/** The tag of a frame, as events and items carry it. */
export function tagOf(frame: RunFrame): RunTag {
  return {
    agent: frame.agent,
    callerAgent: frame.callerAgent,
    runId: frame.runId,
    parentRunId: frame.parentRunId,
    depth: frame.depth,
  };
}
