/**
 * The shapes evals share: a case, what a run of a case produced (its {@link EvalTranscript}),
 * and scorers, which are plain functions from a transcript to a {@link Score}.
 * @module
 */

/** One scorer of a case, as a dataset writes it: a name (`"exact"`) or `{ type, ...options }`. */
export type ScorerSpec = string | ({ type: string; name?: string } & Record<string, unknown>);

/** One case of a dataset. */
export interface EvalCase {
  /** Unique in the dataset (default `case-N`, N its 1-based position). */
  id: string;
  /** The user's message, or several turns sent one after another in one chat. */
  input: string | string[];
  /** The answer the last turn should give (the default scorer compares it, trimmed). */
  expected?: string;
  /** Scorers of this case (default: `exact` when `expected` is set). */
  scorers?: ScorerSpec[];
  /** Free labels, to filter and group cases. */
  tags?: string[];
  /** The lowest mean score each scorer (by name) may have in this case. */
  thresholds?: Record<string, number>;
  /** A cassette of every model call of the case, relative to the dataset file (replayed offline). */
  cassette?: string;
  /** Where the case was captured from (chat id, trace id, when). */
  source?: { chatId?: string; traceId?: string; capturedAt?: string };
}

/** A dataset: its cases and the file they came from. */
export interface EvalDataset {
  /** The dataset file (absolute), or a name for datasets built in code. */
  file: string;
  cases: EvalCase[];
}

/** One tool call made during a case, nested runs included. */
export interface ToolCallRecord {
  /** The agent that called the tool. */
  agent: string;
  tool: string;
  /** The arguments, parsed from JSON when they are JSON. */
  args: unknown;
  /** Nesting depth of the calling run (0 = the entry agent). */
  depth: number;
}

/** One `send_message` from an agent to another. */
export interface DelegationRecord {
  from: string;
  to: string;
  message: string;
  depth: number;
}

/** Everything scorers may look at about one run of a case. */
export interface EvalTranscript {
  /** The final answer of the last turn, as text (structured output as JSON). */
  output: string;
  /** The final answer as the target returned it. */
  finalOutput: unknown;
  toolCalls: ToolCallRecord[];
  /** Every send_message, in conversation order. */
  delegations: DelegationRecord[];
  /** Model calls made (every turn of the case). */
  modelCalls: number;
  /** The deepest nesting reached (0 when the entry agent delegated to nobody). */
  maxDepth: number;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number };
  /** USD, when every model had a price; absent otherwise. */
  cost?: number;
  /** Wall time of the whole case, in ms. */
  latencyMs: number;
  /** The chat the case ran in, when its traces are kept where a server can show them. */
  chatId?: string;
}

/** A score: 0 (worst) to 1 (best), and why. */
export interface Score {
  score: number;
  reason: string;
}

/** What a scorer is given. */
export interface ScorerContext {
  case: EvalCase;
  transcript: EvalTranscript;
  /** The case's `expected`. */
  expected?: string;
  /** Cancels slow scorers (the judge). */
  signal?: AbortSignal;
}

/** A scorer: a plain function. A thrown error scores 0 with the error as the reason. */
export type Scorer = (context: ScorerContext) => Score | Promise<Score>;

/** A scorer with the name results list it under. */
export interface NamedScorer {
  name: string;
  score: Scorer;
}

/** Checks a score a custom scorer returned; throws naming the scorer when it is out of range. */
export function checkScore(name: string, value: unknown): Score {
  const score = (value as Partial<Score> | null)?.score;
  const reason = (value as Partial<Score> | null)?.reason;
  if (typeof score !== 'number' || !(score >= 0 && score <= 1) || typeof reason !== 'string') {
    throw new TypeError(
      `Scorer "${name}" returned ${JSON.stringify(value)}; a scorer returns { score: 0..1, reason: string }.`,
    );
  }
  return { score, reason };
}
