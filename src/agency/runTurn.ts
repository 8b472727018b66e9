/**
 * One turn of one agent: read its thread with the caller, record the incoming message, run the
 * agent with the SDK Runner (streamed or not), then save what it generated. Generated items are
 * saved only when the run finishes, so an aborted or failed run never leaves a tool call without
 * its result in a thread.
 * @module
 */
import { RunContext } from '@openai/agents-core';
import type { AgentInputItem, RunResult, StreamedRunResult } from '@openai/agents-core';
import { ColloquyError } from '../errors.js';
import type { ItemMeta } from '../threads/item.js';
import { bindFrame, tagOf, type RunFrame } from './call.js';
import { errorInfo } from './events.js';
import { emptyUsage, addUsage, type TaggedItem } from './result.js';
import type { AgencyRuntime } from './runtime.js';
import { toAgencyEvent } from './streaming.js';

/** The outcome of a turn. */
export interface TurnOutcome {
  finalOutput: unknown;
  lastAgent: string;
}

/** Runs `frame.agent` on `message` and returns its final output. Throws if the run fails. */
export async function runTurn(
  runtime: AgencyRuntime,
  frame: RunFrame,
  message: string,
): Promise<TurnOutcome> {
  const { call } = frame;
  const tag = tagOf(frame);
  const thread = await runtime.threads.getThread(call.chatId, frame.agent, frame.callerAgent);
  const meta: ItemMeta = {
    agent: frame.agent,
    callerAgent: frame.callerAgent,
    runId: frame.runId,
    parentRunId: frame.parentRunId,
    createdAt: new Date().toISOString(),
  };
  thread.addItem({ role: 'user', content: message }, meta);
  await runtime.threads.saveThread(thread);

  const context = new RunContext(call.context);
  bindFrame(context, frame);
  await runtime.hooks.onRunStart?.({ ...tag, chatId: call.chatId, message });
  call.emit({ type: 'agent_run_started', ...tag, message });

  const usage = emptyUsage();
  let result: RunResult<any, any> | StreamedRunResult<any, any>;
  try {
    const input = runtime.historyView
      ? thread.view({ ...runtime.historyView, as: frame.agent })
      : thread.historyForModel({ as: frame.agent });
    result = await execute(runtime, frame, input, context);
  } catch (error) {
    const info = errorInfo(error);
    call.emit({ type: 'agent_run_failed', ...tag, error: info });
    await runtime.hooks.onRunError?.({ ...tag, chatId: call.chatId, error: info });
    throw error;
  } finally {
    addUsage(usage, context.usage);
    call.addUsage(usage);
  }

  const runItems = result.newItems.filter((item) => item.type !== 'tool_approval_item');
  const generated = runItems.map((item) => item.rawItem as AgentInputItem);
  // The thread belongs to the pair the run started with; items name the agent that produced
  // them, which differs from the run's agent after a handoff.
  thread.addItems(generated, { ...meta, createdAt: new Date().toISOString() });
  await runtime.threads.saveThread(thread);

  call.recordRun({
    runId: frame.runId,
    parentRunId: frame.parentRunId,
    viaCallId: frame.viaCallId,
    items: runItems.map(
      (item, i): TaggedItem => ({ ...tag, agent: producerOf(item) ?? frame.agent, item: generated[i]! }),
    ),
  });
  const finalOutput = result.finalOutput;
  call.emit({ type: 'agent_run_completed', ...tag, finalOutput, usage });
  await runtime.hooks.onRunEnd?.({ ...tag, chatId: call.chatId, finalOutput, usage });
  return { finalOutput, lastAgent: result.lastAgent?.name ?? frame.agent };
}

async function execute(
  runtime: AgencyRuntime,
  frame: RunFrame,
  input: AgentInputItem[],
  context: RunContext<unknown>,
): Promise<RunResult<any, any> | StreamedRunResult<any, any>> {
  const { call } = frame;
  const agent = runtime.runtimeAgent(frame.agent);
  const options = {
    context,
    ...(call.signal ? { signal: call.signal } : {}),
    ...(call.maxTurns !== undefined ? { maxTurns: call.maxTurns } : {}),
  };
  if (!call.streaming) return runtime.runner.run(agent, input, options);

  const streamed = await runtime.runner.run(agent, input, { ...options, stream: true });
  const tag = tagOf(frame);
  for await (const event of streamed) call.emit(toAgencyEvent(event, tag));
  await streamed.completed;
  if (streamed.error) throw streamed.error;
  throwIfAborted(call.signal);
  return streamed;
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
