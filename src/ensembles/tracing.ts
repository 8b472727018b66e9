/**
 * Ensemble runs as traces: {@link createEnsembleTracer} turns the `onEvent` stream of
 * `runEnsemble` into SDK spans (`ensemble_run` → `ensemble_step` → `ensemble_agent`, custom spans
 * with those names), one trace per run, saved with the run store's trace store. It only listens to
 * events (`traceEvents.ts` maps them to spans), so the run engine stays as it is. While an agent's span is open, {@link agentTraceContext}
 * hands it to the LLM agent runner, whose agent and model-call spans then nest under it.
 * @module
 */
import { createCustomSpan, getGlobalTraceProvider } from '@openai/agents-core';
import type { CustomSpanData, Span, Trace, TraceContextSnapshot } from '@openai/agents-core';
import { traceStoreFor } from '../stores/traceStores.js';
import { getTraceRecorder } from '../tracing/setup.js';
import { eventTracer, type EnsembleTracer, type EnsembleTracerOptions } from './traceEvents.js';

export type { EnsembleTracer, EnsembleTracerOptions } from './traceEvents.js';

/** The open `ensemble_agent` spans of every traced run, by run id and agent name. */
const openAgents = new Map<string, TraceContextSnapshot>();
const agentKey = (runId: string, agent: string) => `${runId}\u0000${agent}`;

/**
 * The trace context of an agent of a traced run while its span is open (else undefined): the LLM
 * agent runs inside it, so that its model calls become spans of the ensemble's trace.
 *
 * @example
 * ```ts
 * const context = agentTraceContext(workflow.runId, agent.name);
 * const result = context ? await withTraceContext(context, run) : await run();
 * ```
 */
export function agentTraceContext(runId: string, agent: string): TraceContextSnapshot | undefined {
  return openAgents.get(agentKey(runId, agent));
}

/**
 * Creates the tracer of one ensemble run.
 *
 * @example
 * ```ts
 * const tracer = await createEnsembleTracer({ store });
 * const result = await runEnsemble(ensemble, { store, onEvent: tracer.onEvent });
 * await tracer.finish();
 * ```
 */
export async function createEnsembleTracer(
  options: EnsembleTracerOptions = {},
): Promise<EnsembleTracer> {
  const enabled = options.enabled ?? true;
  const recorder = getTraceRecorder();
  const traces = options.store && enabled ? await traceStoreFor(options.store) : undefined;
  return eventTracer<Span<CustomSpanData>, Trace>(
    {
      createTrace: (trace) => getGlobalTraceProvider().createTrace(trace),
      createSpan: (name, data, parent) => createCustomSpan({ data: { name, data } }, parent),
      bind: (traceId, binding) => recorder.bind(traceId, binding),
      agentSpan(runId, agent, open) {
        if (open) openAgents.set(agentKey(runId, agent), open);
        else openAgents.delete(agentKey(runId, agent));
      },
    },
    traces,
    enabled,
  );
}
