/**
 * Logs from spans: at `info` one line per finished agent run (agent, caller, chat and run ids,
 * duration, tokens, outcome) and per ensemble turn; at `debug` one line per model call and tool
 * call. The logger is looked up per line, so `--log-level` set after start-up applies.
 * @module
 */
import type { Logger } from 'pino';
import { getDefaultLogger } from '../logger.js';
import type { SpanRecord } from '../stores/traceStore.js';
import type { LiveTrace, TraceListener } from './recorder.js';

function ids(trace: LiveTrace): Record<string, unknown> {
  const { chatId, runId } = trace.metadata;
  return {
    traceId: trace.traceId,
    ...(typeof chatId === 'string' ? { chatId } : {}),
    ...(typeof runId === 'string' ? { runId } : {}),
  };
}

function tokens(span: SpanRecord): Record<string, unknown> {
  const { inputTokens, outputTokens } = span.attributes;
  return typeof inputTokens === 'number' || typeof outputTokens === 'number'
    ? { inputTokens: inputTokens ?? 0, outputTokens: outputTokens ?? 0 }
    : {};
}

/** The level each kind of span is logged at (others are not logged); a failed agent run is `error`. */
const LEVEL_OF: Partial<Record<SpanRecord['kind'], 'info' | 'debug'>> = {
  agent: 'info',
  ensemble_agent: 'info',
  ensemble_step: 'info',
  generation: 'debug',
  function: 'debug',
  send_message: 'debug',
};

/** A listener that logs spans as they end (see the module comment). */
export function createLogListener(logger: () => Logger = getDefaultLogger): TraceListener {
  return {
    onSpanEnd(span, trace) {
      const log = logger();
      // Spans end several times per model call: build no log record nobody will see.
      const failedRun = span.error && (span.kind === 'agent' || span.kind === 'ensemble_agent');
      const level = failedRun ? 'error' : LEVEL_OF[span.kind];
      if (!level || !log.isLevelEnabled(level)) return;
      const outcome = span.error ? 'error' : 'ok';
      const base = { ...ids(trace), durationMs: span.durationMs, ...tokens(span) };
      const a = span.attributes;
      switch (span.kind) {
        case 'agent':
        case 'ensemble_agent':
          if (span.error)
            log.error(
              {
                ...base,
                agent: a.agent ?? span.name,
                caller: a.caller ?? null,
                outcome,
                error: span.error.message,
              },
              `agent run ${span.name} failed`,
            );
          else
            log.info(
              {
                ...base,
                agent: a.agent ?? span.name,
                caller: a.caller ?? null,
                depth: a.depth,
                outcome,
              },
              `agent run ${span.name} finished`,
            );
          break;
        case 'ensemble_step':
          log.info({ ...base, step: span.name, outcome }, `ensemble turn ${span.name} finished`);
          break;
        case 'generation':
          log.debug(
            {
              ...base,
              agent: a.agent,
              model: a.model,
              ...(a.attempt ? { attempt: a.attempt } : {}),
              ...(a.fallback ? { fallback: true } : {}),
              outcome,
            },
            `model call ${String(a.model ?? span.name)} by ${String(a.agent ?? '?')}`,
          );
          break;
        case 'function':
        case 'send_message':
          log.debug(
            {
              ...base,
              agent: a.agent,
              tool: a.tool ?? span.name,
              ...(a.recipient ? { recipient: a.recipient } : {}),
              outcome,
            },
            `tool call ${span.name} by ${String(a.agent ?? '?')}`,
          );
          break;
        default:
          break;
      }
    },
  };
}
