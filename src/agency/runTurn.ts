/**
 * One turn of one agent: read its thread with the caller, record the incoming message, run the
 * agent with the SDK Runner (streamed or not), then record what it generated. Generated items are
 * recorded only when the run finishes, so an aborted or failed run never leaves a tool call without
 * its result in a thread; the agency saves every thread of a call when the call ends (see
 * `AgencyCall.deferSave`).
 * @module
 */
import { MaxTurnsExceededError, RunContext, RunState } from '@openai/agents-core';
import type {
  Agent as SdkAgent,
  AgentInputItem,
  RunResult,
  RunToolApprovalItem,
  StreamedRunResult,
} from '@openai/agents-core';
import { ColloquyError, errorInfo } from '../errors.js';
import type { ItemMeta } from '../stores/item.js';
import { bindFrame, tagOf, type RunFrame } from './call.js';
import { attemptListenerActive, withAttemptListener } from '../models/attempts.js';
import { applyDecisions } from './approvals.js';
import { setCost, type TaggedItem } from './result.js';
import type { Usage } from '../usage.js';
import { costPico } from '../models/pricing.js';
import type { AgencyRuntime } from './runtime.js';
import { toAgencyEvent } from './streaming.js';
import type { PreparedInput } from './input.js';
import { withValidationRetries } from './validation.js';
import { budgetedView } from '../threads/view.js';
import { journaledModel, withJournalFrame } from './journal/journaledModel.js';
import { runStateContext } from '../sdk/runStateContext.js';

/** The outcome of a turn. */
export interface TurnOutcome {
  finalOutput: unknown;
  lastAgent: string;
  /** Tool calls waiting for approval; the run stopped and nothing it generated was saved yet. */
  interruptions: RunToolApprovalItem[];
  result: RunResult<any, any> | StreamedRunResult<any, any>;
}

/** A run to continue instead of starting: its SDK state (serialized, for nested runs). */
export interface ResumeInput {
  state: RunState<any, any> | string;
}

/**
 * Runs `frame.agent` on `message` (or resumes its stopped run) and returns its outcome. Throws if
 * the run fails.
 */
export async function runTurn(
  runtime: AgencyRuntime,
  frame: RunFrame,
  message: string | PreparedInput,
  resume?: ResumeInput,
): Promise<TurnOutcome> {
  const { call } = frame;
  const turn: PreparedInput =
    typeof message === 'string'
      ? { model: [{ role: 'user', content: message }], stored: [], text: message }
      : message;
  const thread = await runtime.threads.getThread(call.chatId, frame.agent, frame.callerAgent);
  const meta: ItemMeta = {
    agent: frame.agent,
    callerAgent: frame.callerAgent,
    runId: frame.runId,
    parentRunId: frame.parentRunId,
    createdAt: call.now(),
  };
  const length = thread.items.length;
  // The model input: the history as this agent sees it, then the message (a resumed run's
  // history is in its state). Read before the message is added to the thread.
  const history = resume
    ? []
    : call.memory
      ? thread.historyForModel({ as: frame.agent })
      : thread.historyForModel({ as: frame.agent }, turn.model);
  // The incoming message is saved with what the run generates, in one append (or alone when the
  // run stops or fails). A resumed run's message was saved when it first started.
  if (!resume) thread.addItems(turn.stored.length > 0 ? turn.stored : turn.model, meta);
  // With memory: a recall block before the message and a compacted history (model input only).
  const items =
    call.memory && !resume
      ? await call.memory.modelInput({
          chatId: call.chatId,
          userId: call.userId,
          agent: frame.agent,
          thread,
          length,
          history,
          message: turn.model,
          text: turn.text,
        })
      : history;
  const { context, input } = resume
    ? await resumedInput(runtime, frame, resume)
    : newRunInput(runtime, frame, items);
  bindFrame(context, frame);
  // Usage of this run only: a resumed run's context carries what its first part used.
  const before = context.usage;
  const [requests0, input0, output0, total0] = resume
    ? [before.requests, before.inputTokens, before.outputTokens, before.totalTokens]
    : [0, 0, 0, 0];
  const { onRunStart, onRunEnd, onRunError } = runtime.hooks;
  if (onRunStart) await onRunStart({ ...tagOf(frame), chatId: call.chatId, message: turn.text });
  if (call.streaming) call.emit({ type: 'agent_run_started', ...tagOf(frame), message: turn.text });

  let usage!: Usage;
  let result: RunResult<any, any> | StreamedRunResult<any, any>;
  try {
    result = await (runtime.validationAttempts === 0
      ? execute(runtime, frame, input, context)
      : withValidationRetries(runtime.validationAttempts, input, (attemptInput) =>
          execute(runtime, frame, attemptInput, context),
        ));
  } catch (caught) {
    call.deferSave(thread);
    const error = turnError(caught, frame.agent, call.maxTurns ?? runtime.maxTurnsFor(frame.agent));
    const info = errorInfo(error);
    if (call.streaming) call.emit({ type: 'agent_run_failed', ...tagOf(frame), error: info });
    if (onRunError) await onRunError({ ...tagOf(frame), chatId: call.chatId, error: info });
    throw error;
  } finally {
    const after = context.usage;
    usage = {
      requests: after.requests - requests0,
      inputTokens: after.inputTokens - input0,
      outputTokens: after.outputTokens - output0,
      totalTokens: after.totalTokens - total0,
    };
    const price = runtime.priceFor(frame.agent);
    if (price) setCost(usage, costPico(price, usage.inputTokens, usage.outputTokens));
    call.addUsage(usage);
  }

  const interruptions = result.interruptions ?? [];
  if (interruptions.length > 0) {
    call.deferSave(thread);
    if (call.streaming)
      call.emit({ type: 'agent_run_interrupted', ...tagOf(frame), pending: interruptions.length });
    return {
      finalOutput: undefined,
      lastAgent: result.lastAgent?.name ?? frame.agent,
      interruptions,
      result,
    };
  }

  // One pass over what the run generated: into the thread (the thread belongs to the pair the
  // run started with; items name the agent that produced them, which differs from the run's
  // agent after a handoff) and into the call's items. The SDK's raw items are kept as they are,
  // not copied: the store copies them once when it saves them.
  // The items of the run's own agent share one origin object, as the incoming message's do.
  const createdAt = call.now();
  const ownMeta: ItemMeta = { ...meta, createdAt };
  const tagged: TaggedItem[] = [];
  for (const runItem of result.newItems) {
    if (runItem.type === 'tool_approval_item') continue;
    const item = runItem.rawItem as AgentInputItem;
    const agent = producerOf(runItem) ?? frame.agent;
    thread.addItem(item, agent === meta.agent ? ownMeta : { ...meta, agent, createdAt });
    tagged.push({
      agent,
      callerAgent: frame.callerAgent,
      runId: frame.runId,
      parentRunId: frame.parentRunId,
      depth: frame.depth,
      item,
    });
  }
  call.deferSave(thread);
  call.recordRun({
    runId: frame.runId,
    parentRunId: frame.parentRunId,
    viaCallId: frame.viaCallId,
    items: tagged,
  });
  const finalOutput = result.finalOutput;
  if (call.streaming)
    call.emit({ type: 'agent_run_completed', ...tagOf(frame), finalOutput, usage });
  if (onRunEnd) await onRunEnd({ ...tagOf(frame), chatId: call.chatId, finalOutput, usage });
  return { finalOutput, lastAgent: result.lastAgent?.name ?? frame.agent, interruptions, result };
}

/** The run context and model input of a new run. */
function newRunInput(
  runtime: AgencyRuntime,
  frame: RunFrame,
  items: AgentInputItem[],
): { context: RunContext<unknown>; input: AgentInputItem[] } {
  const input = runtime.historyView ? budgetedView(items, runtime.historyView) : items;
  return { context: new RunContext(frame.call.context), input };
}

/** The run context and state of a resumed run. */
async function resumedInput(
  runtime: AgencyRuntime,
  frame: RunFrame,
  resume: ResumeInput,
): Promise<{ context: RunContext<unknown>; input: RunState<any, any> }> {
  if (typeof resume.state !== 'string') {
    applyDecisions(resume.state, frame.call.decisions);
    return { context: runStateContext(resume.state), input: resume.state };
  }
  const context = new RunContext(frame.call.context);
  const agent = agentOf(runtime, frame);
  const input = await RunState.fromStringWithContext(agent, resume.state, context, {
    contextStrategy: 'merge',
  });
  applyDecisions(input, frame.call.decisions);
  return { context, input };
}

/** The runtime agent of a frame, with the run's own output type and client tools. */
function agentOf(runtime: AgencyRuntime, frame: RunFrame) {
  const base = runtime.runtimeAgent(frame.agent);
  const extra = frame.clientTools ?? [];
  if (!frame.outputType && extra.length === 0) return base;
  return base.clone({
    ...(frame.outputType ? { outputType: frame.outputType } : {}),
    ...(extra.length > 0 ? { tools: [...base.tools, ...extra] } : {}),
  });
}

/** A run's failure as callers see it: running out of turns names the agent and the fix. */
function turnError(error: unknown, agent: string, budget: number): unknown {
  if (!(error instanceof MaxTurnsExceededError)) return error;
  return new ColloquyError(
    'MAX_TURNS',
    `Agent "${agent}" ran out of turns: it reached its max turns (${budget}) in one run ` +
      'without a final answer. Raise it with new Agency({ maxTurns }) (or ' +
      `maxTurnsByAgent: { "${agent}": n }), or for one call with getResponse(message, { maxTurns }).`,
    { cause: error },
  );
}

function execute(
  runtime: AgencyRuntime,
  frame: RunFrame,
  input: AgentInputItem[] | RunState<any, any>,
  context: RunContext<unknown>,
): Promise<RunResult<any, any> | StreamedRunResult<any, any>> {
  const { call } = frame;
  // Attempts made by profile models inside this run become this run's events. A call nobody
  // streams has no use for them: it skips the async context (unless an outer caller listens, whose
  // listener must not get this run's attempts).
  if (!call.streaming && !attemptListenerActive()) return runAgent(runtime, frame, input, context);
  const tag = tagOf(frame);
  return withAttemptListener(
    ({ type: _type, ...attempt }) => call.emit({ type: 'model_attempt', ...tag, attempt }),
    () => runAgent(runtime, frame, input, context),
  );
}

function runAgent(
  runtime: AgencyRuntime,
  frame: RunFrame,
  input: AgentInputItem[] | RunState<any, any>,
  context: RunContext<unknown>,
): Promise<RunResult<any, any> | StreamedRunResult<any, any>> {
  const { call } = frame;
  const options = {
    context,
    ...(call.signal ? { signal: call.signal } : {}),
    maxTurns: call.maxTurns ?? runtime.maxTurnsFor(frame.agent),
  };
  // The common case (no memory, no step journal, not streamed) is the SDK run itself.
  if (!call.memory && !call.journal && !call.streaming)
    return runtime.runner.run(agentOf(runtime, frame), input, options);
  return runAgentWith(runtime, frame, input, options);
}

/** {@link runAgent} with memory, a step journal or a stream. */
async function runAgentWith(
  runtime: AgencyRuntime,
  frame: RunFrame,
  input: AgentInputItem[] | RunState<any, any>,
  options: { context: RunContext<unknown>; signal?: AbortSignal; maxTurns: number },
): Promise<RunResult<any, any> | StreamedRunResult<any, any>> {
  const { call } = frame;
  const runtimeAgent = agentOf(runtime, frame);
  const withMemory = call.memory
    ? await call.memory.agentFor(runtimeAgent, call.userId)
    : runtimeAgent;
  const agent = call.journal ? await withNamedModelJournaled(runtime, withMemory) : withMemory;
  // Model calls made inside know their run (for the step journal).
  if (!call.streaming)
    return withJournalFrame(frame, () => runtime.runner.run(agent, input, options));

  const streamed = await withJournalFrame(frame, () =>
    runtime.runner.run(agent, input, { ...options, stream: true }),
  );
  const tag = tagOf(frame);
  for await (const event of streamed) call.emit(toAgencyEvent(event, tag));
  await streamed.completed;
  if (streamed.error) throw streamed.error;
  throwIfAborted(call.signal);
  return streamed;
}

/**
 * An agent whose model is a name (resolved by the runner's model provider) gets the resolved
 * model, journaled: model objects are journaled when the agency is built (`runtimeAgents.ts`).
 */
async function withNamedModelJournaled(
  runtime: AgencyRuntime,
  agent: SdkAgent<any, any>,
): Promise<SdkAgent<any, any>> {
  if (typeof agent.model !== 'string') return agent;
  const { model: fallback, modelProvider } = runtime.runner.config;
  const chosen = agent.model !== '' ? agent.model : fallback;
  const model =
    typeof chosen === 'string' || chosen === undefined
      ? await modelProvider.getModel(chosen || undefined)
      : chosen;
  return agent.clone({ model: journaledModel(model) });
}

/** The name of the agent that produced a run item, when the SDK records one. */
function producerOf(item: RunResult<any, any>['newItems'][number]): string | undefined {
  const agent = (item as { agent?: { name?: unknown } }).agent;
  return typeof agent?.name === 'string' ? agent.name : undefined;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  throw signal.reason instanceof Error
    ? signal.reason
    : new ColloquyError('ABORTED', 'The agency call was aborted through its signal.');
}
