/**
 * Scorers of the answer's text: exact match (after trimming), contains, regex, and JSON schema.
 * @module
 */
import { z } from 'zod';
import { ConfigError } from '../../errors.js';
import type { Score, Scorer } from '../types.js';

function clip(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** Options of {@link exactMatch}. */
export interface ExactMatchOptions {
  /** The answer to match (default: the case's `expected`). */
  expected?: string;
  /** Compare without regard to case (default false). */
  ignoreCase?: boolean;
}

/** 1 when the answer equals the expected text after trimming whitespace, else 0. */
export function exactMatch(options: ExactMatchOptions = {}): Scorer {
  return ({ transcript, expected }): Score => {
    const want = options.expected ?? expected;
    if (want === undefined)
      return { score: 0, reason: 'the case has no expected answer to compare with' };
    const norm = (text: string) => (options.ignoreCase ? text.trim().toLowerCase() : text.trim());
    return norm(transcript.output) === norm(want)
      ? { score: 1, reason: 'the answer equals the expected text' }
      : {
          score: 0,
          reason: `expected "${clip(want.trim())}", got "${clip(transcript.output.trim())}"`,
        };
  };
}

/** Options of {@link contains}. */
export interface ContainsOptions {
  /** Texts the answer should contain; the score is the share found. */
  value: string | string[];
  ignoreCase?: boolean;
}

/** The share of `value` texts the answer contains. */
export function contains(options: ContainsOptions): Scorer {
  const wanted = Array.isArray(options.value) ? options.value : [options.value];
  if (wanted.length === 0)
    throw new ConfigError('The contains scorer needs at least one text in "value".');
  return ({ transcript }): Score => {
    const norm = (text: string) => (options.ignoreCase ? text.toLowerCase() : text);
    const haystack = norm(transcript.output);
    const missing = wanted.filter((text) => !haystack.includes(norm(text)));
    const score = (wanted.length - missing.length) / wanted.length;
    return {
      score,
      reason:
        missing.length === 0
          ? `the answer contains ${wanted.map((t) => `"${t}"`).join(', ')}`
          : `the answer lacks ${missing.map((t) => `"${t}"`).join(', ')}`,
    };
  };
}

/** Options of {@link regex}. */
export interface RegexOptions {
  pattern: string;
  /** Regular expression flags, e.g. `i`. */
  flags?: string;
}

/** 1 when the answer matches the pattern, else 0. */
export function regex(options: RegexOptions): Scorer {
  let pattern: RegExp;
  try {
    pattern = new RegExp(options.pattern, options.flags);
  } catch (error) {
    throw new ConfigError(
      `The regex scorer's pattern /${options.pattern}/ is invalid: ${(error as Error).message}.`,
    );
  }
  return ({ transcript }): Score =>
    pattern.test(transcript.output)
      ? { score: 1, reason: `the answer matches ${pattern}` }
      : { score: 0, reason: `the answer does not match ${pattern}` };
}

/** Options of {@link jsonSchema}. */
export interface JsonSchemaOptions {
  /** A JSON Schema the answer (parsed as JSON) must satisfy. */
  schema: Record<string, unknown>;
}

/** 1 when the answer is JSON satisfying the schema; 0 with the first problem otherwise. */
export function jsonSchema(options: JsonSchemaOptions): Scorer {
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(options.schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw new ConfigError(
      `The json_schema scorer's schema is not a JSON Schema it can check: ${(error as Error).message}.`,
    );
  }
  return ({ transcript }): Score => {
    let value: unknown = transcript.finalOutput;
    if (typeof value === 'string') {
      try {
        value = JSON.parse(value) as unknown;
      } catch {
        // Not JSON: that is the score, with the answer quoted.
        return { score: 0, reason: `the answer is not JSON: "${clip(transcript.output)}"` };
      }
    }
    const result = validator.safeParse(value);
    if (result.success) return { score: 1, reason: 'the answer satisfies the schema' };
    const issue = result.error.issues[0]!;
    return {
      score: 0,
      reason: `${issue.path.map(String).join('.') || '(answer)'}: ${issue.message}`,
    };
  };
}
