/**
 * The LLM judge: a model (any model or profile) reads a rubric, the case's input, the expected
 * answer (when there is one) and the answer, and replies `{"score": 0..1, "reason": "…"}`.
 * @module
 */
import { Agent, Runner } from '@openai/agents-core';
import type { Model, ModelSettings } from '@openai/agents-core';
import { ColloquyError } from '../../errors.js';
import type { Score, Scorer } from '../types.js';

/** Options of {@link llmJudge}. */
export interface LlmJudgeOptions {
  /** The judge's model (e.g. `createModel('judge', registry)`, or a scripted model in tests). */
  model: Model;
  /** What makes a good answer, in plain words. */
  rubric: string;
  /** Settings of the judge's calls (default temperature 0, so repeats agree where the model allows). */
  modelSettings?: ModelSettings;
}

/** The judge's instructions. */
export const JUDGE_INSTRUCTIONS =
  'You grade an AI assistant\'s answer against a rubric. Reply with JSON only: {"score": <a number from 0 to 1>, "reason": "<one sentence>"}. ' +
  '1 means the answer fully meets the rubric, 0 that it does not meet it at all.';

/** The message the judge gets for one answer. */
export function judgePrompt(
  rubric: string,
  input: string,
  answer: string,
  expected?: string,
): string {
  return [
    `Rubric:\n${rubric}`,
    `User input:\n${input}`,
    ...(expected === undefined ? [] : [`Reference answer:\n${expected}`]),
    `Answer to grade:\n${answer}`,
  ].join('\n\n');
}

/** Reads `{"score", "reason"}` from the judge's reply (the first JSON object in it). */
export function parseJudgeReply(reply: string): Score {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  let parsed: { score?: unknown; reason?: unknown } | undefined;
  if (start >= 0 && end > start) {
    try {
      parsed = JSON.parse(reply.slice(start, end + 1)) as typeof parsed;
    } catch {
      // The judge did not answer JSON: scored as unparsable below.
      parsed = undefined;
    }
  }
  const score = typeof parsed?.score === 'string' ? Number(parsed.score) : parsed?.score;
  if (typeof score !== 'number' || !(score >= 0 && score <= 1)) {
    throw new ColloquyError(
      'MODEL_ERROR',
      `The judge replied ${JSON.stringify(reply.slice(0, 200))}, not {"score": 0..1, "reason": "…"}. ` +
        'Use a model that follows the format, or tighten the rubric.',
    );
  }
  const reason = typeof parsed?.reason === 'string' ? parsed.reason : 'the judge gave no reason';
  return { score, reason: `judge: ${reason}` };
}

/**
 * A scorer asking a model to grade the answer against a rubric.
 *
 * @example
 * ```ts
 * const judge = llmJudge({ model: createModel('judge', registry), rubric: 'Cites three facts.' });
 * ```
 */
export function llmJudge(options: LlmJudgeOptions): Scorer {
  const agent = new Agent({
    name: 'Judge',
    instructions: JUDGE_INSTRUCTIONS,
    model: options.model,
    modelSettings: { temperature: 0, ...options.modelSettings },
  });
  const runner = new Runner({ tracingDisabled: true });
  return async ({ case: item, transcript, expected, signal }): Promise<Score> => {
    const input = Array.isArray(item.input) ? item.input.join('\n---\n') : item.input;
    const prompt = judgePrompt(options.rubric, input, transcript.output, expected);
    const result = await runner.run(agent, prompt, signal ? { signal } : {});
    return parseJudgeReply(String(result.finalOutput ?? ''));
  };
}
