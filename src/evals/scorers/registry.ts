/**
 * From the scorers a dataset names (`"exact"`, `{ "type": "contains", "value": "tidal" }`) to
 * scorer functions. Options of each built-in are checked with zod; a bad one fails naming the
 * dataset, the case and the scorer.
 * @module
 */
import type { Model } from '@openai/agents-core';
import { z } from 'zod';
import { ConfigError } from '../../errors.js';
import type { EvalCase, NamedScorer, Scorer, ScorerSpec } from '../types.js';
import { delegatedTo, maxCost, maxDepth, maxLatency, maxTurns, toolCalled } from './behavior.js';
import { llmJudge } from './judge.js';
import { similarity, type Embedder } from './similarity.js';
import { contains, exactMatch, jsonSchema, regex } from './text.js';

/** What built-in scorers may need beyond their options, and your own scorers. */
export interface ScorerEnvironment {
  /** Your scorers by name: a dataset uses them as `"name"` or `{ "type": "name" }`. */
  custom?: Record<string, Scorer>;
  /** The embedder of `similarity` scorers. */
  embedder?: Embedder;
  /**
   * The judge's model: one model, or a function of the `profile` a judge scorer names (undefined
   * when it names none).
   */
  judge?: Model | ((profile: string | undefined) => Model | Promise<Model>);
}

const str = z.string().min(1);
const args = z.record(z.string(), z.unknown());
const OPTIONS = {
  exact: z.object({ expected: z.string().optional(), ignoreCase: z.boolean().optional() }),
  contains: z.object({
    value: z.union([str, z.array(str).min(1)]),
    ignoreCase: z.boolean().optional(),
  }),
  regex: z.object({ pattern: str, flags: z.string().optional() }),
  json_schema: z.object({ schema: args }),
  tool_called: z.object({
    tool: str,
    args: args.optional(),
    agent: str.optional(),
    times: z.number().int().min(1).optional(),
  }),
  delegated: z.object({
    path: z.union([str, z.array(str).min(1)]),
    ordered: z.boolean().optional(),
    from: str.optional(),
  }),
  max_turns: z.object({ max: z.number().int().min(0) }),
  max_depth: z.object({ max: z.number().int().min(0) }),
  max_cost: z.object({ usd: z.number().min(0) }),
  max_latency: z.object({ ms: z.number().min(0) }),
  similarity: z.object({ expected: z.string().optional() }),
  judge: z.object({ rubric: str, profile: str.optional() }),
} as const;

/** The names of the built-in scorers. */
export const BUILTIN_SCORERS = Object.keys(OPTIONS) as Array<keyof typeof OPTIONS>;

type Options<K extends keyof typeof OPTIONS> = z.output<(typeof OPTIONS)[K]>;

async function builtin(
  type: keyof typeof OPTIONS,
  raw: Record<string, unknown>,
  env: ScorerEnvironment,
  where: string,
): Promise<Scorer> {
  const parsed = OPTIONS[type].strict().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = [...issue.path, ...((issue as { keys?: string[] }).keys ?? [])]
      .map(String)
      .join('.');
    throw new ConfigError(`${where}: ${field || '(options)'}: ${issue.message}.`);
  }
  const options = parsed.data;
  switch (type) {
    case 'exact':
      return exactMatch(options as Options<'exact'>);
    case 'contains':
      return contains(options as Options<'contains'>);
    case 'regex':
      return regex(options as Options<'regex'>);
    case 'json_schema':
      return jsonSchema(options as Options<'json_schema'>);
    case 'tool_called':
      return toolCalled(options as Options<'tool_called'>);
    case 'delegated': {
      const { path, ...rest } = options as Options<'delegated'>;
      return delegatedTo({ ...rest, path: Array.isArray(path) ? path : [path] });
    }
    case 'max_turns':
      return maxTurns(options as Options<'max_turns'>);
    case 'max_depth':
      return maxDepth(options as Options<'max_depth'>);
    case 'max_cost':
      return maxCost(options as Options<'max_cost'>);
    case 'max_latency':
      return maxLatency(options as Options<'max_latency'>);
    case 'similarity':
      if (!env.embedder)
        throw new ConfigError(
          `${where}: a similarity scorer needs an embedder. Pass runEval({ embedder }) (or --embedder MODULE#export).`,
        );
      return similarity({ ...(options as Options<'similarity'>), embedder: env.embedder });
    case 'judge': {
      const { rubric, profile } = options as Options<'judge'>;
      if (!env.judge)
        throw new ConfigError(
          `${where}: a judge scorer needs a judge model. Pass runEval({ judge }) (or --judge-profile P).`,
        );
      const model = typeof env.judge === 'function' ? await env.judge(profile) : env.judge;
      return llmJudge({ model, rubric });
    }
  }
}

/**
 * The scorers of a case: its `scorers`, or `exact` when it has `expected` and none. Names must be
 * unique in a case (give `name` to use one type twice).
 */
export async function resolveScorers(
  item: EvalCase,
  env: ScorerEnvironment,
  file = 'dataset',
): Promise<NamedScorer[]> {
  const specs: ScorerSpec[] = item.scorers ?? (item.expected !== undefined ? ['exact'] : []);
  const out: NamedScorer[] = [];
  for (const [index, spec] of specs.entries()) {
    const { type, name: given, ...raw } = typeof spec === 'string' ? { type: spec } : spec;
    const name = given ?? type;
    const where = `${file}: case "${item.id}": scorers[${index}] (${name})`;
    if (out.some((scorer) => scorer.name === name))
      throw new ConfigError(
        `${where}: a second scorer named "${name}". Give it a "name" of its own.`,
      );
    const custom = env.custom?.[type];
    if (custom) {
      out.push({ name, score: custom });
      continue;
    }
    if (!(type in OPTIONS)) {
      const known = [...BUILTIN_SCORERS, ...Object.keys(env.custom ?? {})].join(', ');
      throw new ConfigError(`${where}: unknown scorer "${type}". Known: ${known}.`);
    }
    out.push({ name, score: await builtin(type as keyof typeof OPTIONS, raw, env, where) });
  }
  for (const name of Object.keys(item.thresholds ?? {}))
    if (!out.some((scorer) => scorer.name === name))
      throw new ConfigError(
        `${file}: case "${item.id}": thresholds.${name}: the case has no scorer "${name}" (its scorers: ${out.map((s) => s.name).join(', ') || 'none'}).`,
      );
  return out;
}
