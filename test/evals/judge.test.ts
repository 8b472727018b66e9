import type { ModelRequest } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { llmJudge, parseJudgeReply } from '../../src/evals/scorers/judge.js';
import { runEval } from '../../src/evals/run.js';
import { lastUserText } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { demoTarget } from './helpers.js';

/** A judge that gives 1 when the answer names every fact the rubric asks for, else the share. */
function factJudge(): ScriptedModel {
  return new ScriptedModel((request: ModelRequest) => {
    const prompt = lastUserText(request);
    const answer = prompt.split('Answer to grade:\n')[1] ?? '';
    const wanted = ['predictable', 'currents', 'decades', 'cheap'];
    const found = wanted.filter((word) => answer.includes(word));
    return JSON.stringify({
      score: found.length / wanted.length,
      reason: `names ${found.join(', ')}`,
    });
  });
}

describe('the LLM judge', () => {
  it('sends the rubric, input, reference and answer, and reads the score and reason', async () => {
    const judge = new ScriptedModel(['Sure: {"score": 0.75, "reason": "mostly right"}']);
    const scorer = llmJudge({ model: judge, rubric: 'Names three facts.' });
    const score = await scorer({
      case: { id: 'c', input: ['hi', 'write'] },
      transcript: {
        output: 'The answer',
        finalOutput: 'The answer',
        toolCalls: [],
        delegations: [],
        modelCalls: 1,
        maxDepth: 0,
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        latencyMs: 1,
      },
      expected: 'Reference',
    });
    expect(score).toEqual({ score: 0.75, reason: 'judge: mostly right' });
    const request = judge.calls[0]!.request;
    expect(request.systemInstructions).toMatch(/Reply with JSON only/);
    expect(lastUserText(request)).toBe(
      'Rubric:\nNames three facts.\n\nUser input:\nhi\n---\nwrite\n\nReference answer:\nReference\n\nAnswer to grade:\nThe answer',
    );
    expect(request.modelSettings.temperature).toBe(0);
  });

  it('refuses a reply that is not a score', () => {
    expect(() => parseJudgeReply('I think it is good')).toThrow(/not \{"score": 0\.\.1/);
    expect(() => parseJudgeReply('{"score": 7}')).toThrow(/not \{"score"/);
    expect(parseJudgeReply('{"score": "1"}')).toEqual({
      score: 1,
      reason: 'judge: the judge gave no reason',
    });
  });

  it('grades the demo agency reproducibly over repeats (a zero spread)', async () => {
    const results = await runEval({
      dataset: {
        file: 'judge.jsonl',
        cases: [
          {
            id: 'brief',
            input: 'Write a short brief about tidal energy.',
            scorers: [{ type: 'judge', rubric: 'Names the facts.' }],
          },
        ],
      },
      target: demoTarget(),
      judge: factJudge(),
      repeat: 3,
      resultsDir: false,
    });
    expect(results.cases[0]!.scores[0]).toMatchObject({
      scorer: 'judge',
      mean: 0.75,
      min: 0.75,
      max: 0.75,
      stdev: 0,
    });
    expect(results.cases[0]!.scores[0]!.reason).toBe('judge: names predictable, currents, decades');
    expect(results.cases[0]!.runs).toHaveLength(3);
  });

  it('reports the spread when the judge disagrees with itself', async () => {
    const judge = new ScriptedModel([
      '{"score": 0.5, "reason": "a"}',
      '{"score": 1, "reason": "b"}',
      '{"score": 0, "reason": "c"}',
    ]);
    const results = await runEval({
      dataset: {
        file: 'judge.jsonl',
        cases: [
          {
            id: 'brief',
            input: 'Write about wind.',
            scorers: [{ type: 'judge', rubric: 'Good.' }],
          },
        ],
      },
      target: demoTarget(),
      judge: () => judge,
      repeat: 3,
      concurrency: 1,
      resultsDir: false,
    });
    const [score] = results.cases[0]!.scores;
    expect(score).toMatchObject({ mean: 0.5, min: 0, max: 1 });
    expect(score!.stdev).toBeCloseTo(Math.sqrt(1 / 6));
    expect(results.scorers.judge).toMatchObject({ mean: 0.5, count: 1 });
  });

  it('scores 0 with the reason when the judge fails', async () => {
    const results = await runEval({
      dataset: {
        file: 'judge.jsonl',
        cases: [
          {
            id: 'brief',
            input: 'Write about wind.',
            scorers: [{ type: 'judge', rubric: 'Good.' }],
          },
        ],
      },
      target: demoTarget(),
      judge: new ScriptedModel(['no idea']),
      resultsDir: false,
    });
    expect(results.cases[0]!.scores[0]).toMatchObject({ mean: 0 });
    expect(results.cases[0]!.scores[0]!.reason).toMatch(
      /^the scorer failed: The judge replied "no idea"/,
    );
  });
});
