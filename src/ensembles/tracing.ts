/**
 * Ensemble runs as traces: {@link createEnsembleTracer} turns the `onEvent` stream of
 * `runEnsemble` into SDK spans (`ensemble_run` → `ensemble_step` → `ensemble_agent`, custom spans
 * with those names), one trace per run, saved with the run store's trace store. It only listens to
 * events, so the run engine stays as it is. While an agent's span is open, {@link agentTraceContext}
 * hands it to the LLM agent runner, whose agent and model-call spans then nest under it.
 * @module
 */
import { createCustomSpan, getGlobalTraceProvider } from '@openai/agents-core';
import type { CustomSpanData, Span, Trace, TraceContextSnapshot } from '@openai/agents-core';
import { cutText } from '../stores/traceBounds.js';
import { traceStoreFor } from '../stores/traceStores.js';
import type { TraceStore } from '../stores/traceStore.js';
import type { ThreadStore } from '../stores/types.js';
import { getTraceRecorder } from '../tracing/setup.js';
import type { EnsembleEvent } from './events.js';

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

/** Options of {@link createEnsembleTracer}. */
export interface EnsembleTracerOptions {
  /** The run's store; its trace store keeps the trace. */
  store?: ThreadStore;
  /** Record the run (default true). */
  enabled?: boolean;
}

/** Feeds ensemble events into a trace; `onEvent` goes into `runEnsemble`'s `onEvent`. */
export interface EnsembleTracer {
  onEvent(event: EnsembleEvent): void;
  /** Ends whatever is still open (a run that threw); resolves when the trace is saved. */
  finish(error?: unknown): Promise<void>;
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
  const traces: TraceStore | undefined =
    options.store && enabled ? await traceStoreFor(options.store) : undefined;
  let trace: Trace | undefined;
  let run: Span<CustomSpanData> | undefined;
  let step: Span<CustomSpanData> | undefined;
  let runId = '';
  const agents = new Map<string, Span<CustomSpanData>>();
  let ended: Promise<void> = Promise.resolve();

  const open = (name: string, data: Record<string, unknown>, parent: Span<any> | Trace) => {
    const span = createCustomSpan({ data: { name, data } }, parent);
    span.start();
    return span;
  };
  const endAgent = (name: string) => {
    agents.get(name)?.end();
    agents.delete(name);
    openAgents.delete(agentKey(runId, name));
  };
  const endStep = () => {
    for (const name of [...agents.keys()]) endAgent(name);
    step?.end();
    step = undefined;
  };
  const endRun = (error?: string) => {
    endStep();
    // Cut here too: the SDK span also goes to every other trace processor (OTLP, OpenAI).
    if (error) run?.setError({ message: cutText(error) });
    run?.end();
    run = undefined;
    if (trace) {
      const current = trace;
      trace = undefined;
      ended = current.end();
    }
  };

  return {
    onEvent(event) {
      if (!enabled) return;
      switch (event.type) {
        case 'ensemble_started':
          runId = event.run_id;
          trace = getGlobalTraceProvider().createTrace({
            name: `ensemble ${event.ensemble}`,
            groupId: event.run_id,
            metadata: { runId: event.run_id, ensemble: event.ensemble },
          });
          recorder.bind(trace.traceId, traces ? { store: traces } : {});
          void trace.start();
          run = open(
            'ensemble_run',
            { label: event.ensemble, runId: event.run_id, resumed: event.resumed },
            trace,
          );
          break;
        case 'step_started':
          endStep();
          if (run)
            step = open(
              'ensemble_step',
              { label: `step ${event.step}`, agents: event.agents },
              run,
            );
          break;
        case 'agent_started': {
          if (!step || !trace) break;
          const span = open('ensemble_agent', { label: event.agent, agent: event.agent }, step);
          agents.set(event.agent, span);
          openAgents.set(agentKey(runId, event.agent), { trace, span });
          break;
        }
        case 'agent_dispatched': {
          const span = agents.get(event.agent);
          if (span)
            span.spanData.data = {
              ...span.spanData.data,
              dispatch: event.reference,
              target: event.target,
              childRunId: event.child_run_id,
            };
          break;
        }
        case 'agent_finished': {
          const span = agents.get(event.agent);
          if (!span) break;
          span.spanData.data = {
            ...span.spanData.data,
            executionTime: event.execution_time,
            success: event.success,
          };
          if (!event.success) span.setError({ message: cutText(event.error ?? 'agent failed') });
          endAgent(event.agent);
          break;
        }
        case 'ensemble_finished':
          endRun(event.result.error ? event.result.error.message : undefined);
          break;
        default:
          break;
      }
    },
    async finish(error) {
      if (trace)
        endRun(error === undefined ? undefined : String((error as Error)?.message ?? error));
      await ended;
    },
  };
}
