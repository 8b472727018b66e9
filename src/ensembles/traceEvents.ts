/**
 * How ensemble events become spans (`ensemble_run` → `ensemble_step` → `ensemble_agent`, one
 * trace per run), whoever makes the spans: the SDK (`tracing.ts`, so that an LLM agent's model
 * calls nest under its span and every SDK processor sees them) or the local maker of
 * `localTracing.ts` (script-only runs, without loading the SDK). This module imports neither.
 * @module
 */
import { cutText } from '../stores/traceBounds.js';
import type { TraceStore } from '../stores/traceStore.js';
import type { ThreadStore } from '../stores/types.js';
import type { TraceBinding } from '../tracing/recorder.js';
import type { EnsembleEvent } from './events.js';

/** Options of `createEnsembleTracer`. */
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

/** A span as the tracer uses it (the SDK's custom spans have this shape). */
export interface TracerSpan {
  spanData: { data: Record<string, unknown> };
  start(): void;
  end(): void;
  setError(error: { message: string }): void;
}

/** A trace as the tracer uses it. */
export interface TracerTrace {
  readonly traceId: string;
  start(): unknown;
  end(): Promise<void>;
}

/** Makes the traces and spans of {@link eventTracer}. */
export interface SpanMaker<S extends TracerSpan, T extends TracerTrace> {
  createTrace(options: { name: string; groupId: string; metadata: Record<string, string> }): T;
  createSpan(name: string, data: Record<string, unknown>, parent: S | T): S;
  /** Binds a trace (before it starts) to where it is saved. */
  bind(traceId: string, binding: TraceBinding): void;
  /** An agent's span opened (`span`) or closed (undefined). */
  agentSpan?(runId: string, agent: string, open?: { trace: T; span: S }): void;
}

/** The tracer of one run, writing through `maker`; `traces` keeps the finished trace. */
export function eventTracer<S extends TracerSpan, T extends TracerTrace>(
  maker: SpanMaker<S, T>,
  traces: TraceStore | undefined,
  enabled: boolean,
): EnsembleTracer {
  let trace: T | undefined;
  let run: S | undefined;
  let step: S | undefined;
  let runId = '';
  const agents = new Map<string, S>();
  let ended: Promise<void> = Promise.resolve();

  const open = (name: string, data: Record<string, unknown>, parent: S | T) => {
    const span = maker.createSpan(name, data, parent);
    span.start();
    return span;
  };
  const endAgent = (name: string) => {
    agents.get(name)?.end();
    agents.delete(name);
    maker.agentSpan?.(runId, name);
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
          trace = maker.createTrace({
            name: `ensemble ${event.ensemble}`,
            groupId: event.run_id,
            metadata: { runId: event.run_id, ensemble: event.ensemble },
          });
          maker.bind(trace.traceId, traces ? { store: traces } : {});
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
          maker.agentSpan?.(runId, event.agent, { trace, span });
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
