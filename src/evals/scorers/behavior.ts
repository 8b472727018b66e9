/**
 * Scorers of what the agency did: tools called (with arguments), delegation along send_message
 * (in order or not), and limits on model calls, nesting depth, cost and latency.
 * @module
 */
import { isDeepStrictEqual } from 'node:util';
import { ConfigError } from '../../errors.js';
import type { Score, Scorer } from '../types.js';

/** Whether `actual` has every field of `expected` (deeply; arrays must be equal). */
export function matchesPartial(actual: unknown, expected: unknown): boolean {
  if (expected && typeof expected === 'object' && !Array.isArray(expected)) {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([key, value]) =>
      matchesPartial((actual as Record<string, unknown>)[key], value),
    );
  }
  return isDeepStrictEqual(actual, expected);
}

/** Options of {@link toolCalled}. */
export interface ToolCalledOptions {
  tool: string;
  /** Arguments the call must have (a partial match: other arguments may be present). */
  args?: Record<string, unknown>;
  /** Only calls by this agent count. */
  agent?: string;
  /** At least this many matching calls (default 1). */
  times?: number;
}

/** 1 when the tool was called (with those arguments, by that agent); 0 with what was called. */
export function toolCalled(options: ToolCalledOptions): Scorer {
  const times = options.times ?? 1;
  return ({ transcript }): Score => {
    const named = transcript.toolCalls.filter(
      (call) =>
        call.tool === options.tool && (options.agent === undefined || call.agent === options.agent),
    );
    const matching = named.filter(
      (call) => options.args === undefined || matchesPartial(call.args, options.args),
    );
    const who = options.agent ? ` by ${options.agent}` : '';
    if (matching.length >= times)
      return { score: 1, reason: `${options.tool} was called${who} ${matching.length} time(s)` };
    if (named.length > 0 && options.args !== undefined) {
      return {
        score: 0,
        reason: `${options.tool} was called${who}, but never with ${JSON.stringify(options.args)} (got ${named.map((call) => JSON.stringify(call.args)).join('; ')})`,
      };
    }
    const called = [...new Set(transcript.toolCalls.map((call) => call.tool))];
    return {
      score: 0,
      reason: `${options.tool} was called${who} ${matching.length} of ${times} time(s); tools called: ${called.join(', ') || 'none'}`,
    };
  };
}

/** Options of {@link delegatedTo}. */
export interface DelegatedOptions {
  /** The agents messaged with send_message, e.g. `['Researcher', 'Writer']`. */
  path: string[];
  /** The path must be followed in this order (other messages may come between; default true). */
  ordered?: boolean;
  /** Only messages sent by this agent count. */
  from?: string;
}

/**
 * The share of `path` the agency followed: in order, the longest start of the path found in the
 * sequence of send_message recipients; in any order, the share of agents messaged at all.
 */
export function delegatedTo(options: DelegatedOptions): Scorer {
  if (options.path.length === 0)
    throw new ConfigError('The delegated scorer needs at least one agent in "path".');
  const ordered = options.ordered ?? true;
  return ({ transcript }): Score => {
    const sent = transcript.delegations
      .filter((d) => options.from === undefined || d.from === options.from)
      .map((d) => d.to);
    let found = 0;
    if (ordered) {
      for (const recipient of sent) if (recipient === options.path[found]) found += 1;
      found = Math.min(found, options.path.length);
    } else {
      found = options.path.filter((agent) => sent.includes(agent)).length;
    }
    const score = found / options.path.length;
    const actual = sent.join(' → ') || 'nobody';
    const want = options.path.join(ordered ? ' → ' : ', ');
    return {
      score,
      reason:
        score === 1
          ? `delegated ${ordered ? 'along' : 'to'} ${want} (messages: ${actual})`
          : `expected ${ordered ? 'the path' : 'messages to'} ${want}, got ${actual}`,
    };
  };
}

function limit(
  what: string,
  value: number | undefined,
  max: number,
  unit: string,
  missing?: string,
): Score {
  if (value === undefined) return { score: 0, reason: missing ?? `${what} is unknown` };
  return value <= max
    ? { score: 1, reason: `${what} ${value}${unit} ≤ ${max}${unit}` }
    : { score: 0, reason: `${what} ${value}${unit} > ${max}${unit}` };
}

/** 1 when the case made at most `max` model calls (every agent and turn counted). */
export function maxTurns(options: { max: number }): Scorer {
  return ({ transcript }) => limit('model calls', transcript.modelCalls, options.max, '');
}

/** 1 when send_message nested at most `max` deep (0: the entry agent messaged nobody). */
export function maxDepth(options: { max: number }): Scorer {
  return ({ transcript }) => limit('depth', transcript.maxDepth, options.max, '');
}

/** 1 when the case cost at most `usd` (needs model prices: a profile price or `prices`). */
export function maxCost(options: { usd: number }): Scorer {
  return ({ transcript }) =>
    limit(
      'cost',
      transcript.cost,
      options.usd,
      ' USD',
      'the cost is unknown: no model of the case has a price (set one in the profile or Agency({ prices }))',
    );
}

/** 1 when the case took at most `ms` milliseconds (wall time, every turn). */
export function maxLatency(options: { ms: number }): Scorer {
  return ({ transcript }) => limit('latency', Math.round(transcript.latencyMs), options.ms, ' ms');
}
