import { describe, expect, it } from 'vitest';
import { resolveScorers } from '../../src/evals/scorers/registry.js';
import { similarity, type Embedder } from '../../src/evals/scorers/similarity.js';
import type { EvalCase, EvalTranscript, Score } from '../../src/evals/types.js';

function transcript(overrides: Partial<EvalTranscript> = {}): EvalTranscript {
  return {
    output: '  {"city": "Oslo", "days": 3}\n',
    finalOutput: '  {"city": "Oslo", "days": 3}\n',
    toolCalls: [
      {
        agent: 'Coordinator',
        tool: 'send_message',
        args: { recipient: 'Researcher', message: 'facts' },
        depth: 0,
      },
      { agent: 'Writer', tool: 'lookup', args: { city: 'Oslo', units: 'metric' }, depth: 1 },
      {
        agent: 'Coordinator',
        tool: 'send_message',
        args: { recipient: 'Writer', message: 'write' },
        depth: 0,
      },
    ],
    delegations: [
      { from: 'Coordinator', to: 'Researcher', message: 'facts', depth: 0 },
      { from: 'Coordinator', to: 'Writer', message: 'write', depth: 0 },
      { from: 'Writer', to: 'Editor', message: 'tighten', depth: 1 },
    ],
    modelCalls: 7,
    maxDepth: 2,
    usage: { inputTokens: 70, outputTokens: 35, totalTokens: 105 },
    cost: 0.002,
    latencyMs: 120,
    ...overrides,
  };
}

async function score(
  item: Partial<EvalCase>,
  t = transcript(),
  env = {},
): Promise<Record<string, Score>> {
  const full: EvalCase = { id: 'c', input: 'hi', ...item };
  const scorers = await resolveScorers(full, env, 'cases.jsonl');
  const out: Record<string, Score> = {};
  for (const scorer of scorers)
    out[scorer.name] = await scorer.score({
      case: full,
      transcript: t,
      ...(full.expected ? { expected: full.expected } : {}),
    });
  return out;
}

describe('built-in scorers', () => {
  it('exact matches after trimming, by default when expected is set', async () => {
    expect((await score({ expected: '{"city": "Oslo", "days": 3}' })).exact).toEqual({
      score: 1,
      reason: 'the answer equals the expected text',
    });
    const miss = (await score({ expected: 'Paris' })).exact!;
    expect(miss.score).toBe(0);
    expect(miss.reason).toContain('expected "Paris"');
    expect(await score({})).toEqual({});
  });

  it('contains scores the share of texts found; regex matches', async () => {
    const scores = await score({
      scorers: [
        { type: 'contains', value: ['Oslo', 'Bergen'] },
        { type: 'contains', name: 'ci', value: 'oslo', ignoreCase: true },
        { type: 'regex', pattern: '"days": \\d+' },
        { type: 'regex', name: 'nope', pattern: '^Paris' },
      ],
    });
    expect(scores.contains).toEqual({ score: 0.5, reason: 'the answer lacks "Bergen"' });
    expect(scores.ci!.score).toBe(1);
    expect(scores.regex!.score).toBe(1);
    expect(scores.nope!.score).toBe(0);
  });

  it('checks JSON answers against a JSON schema', async () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', maximum: 2 } },
      required: ['city'],
    };
    const scores = await score({ scorers: [{ type: 'json_schema', schema }] });
    expect(scores.json_schema!.score).toBe(0);
    expect(scores.json_schema!.reason).toMatch(/^days: /);
    const ok = await score({
      scorers: [{ type: 'json_schema', schema: { type: 'object', required: ['city'] } }],
    });
    expect(ok.json_schema).toEqual({ score: 1, reason: 'the answer satisfies the schema' });
    const notJson = await score(
      { scorers: [{ type: 'json_schema', schema }] },
      transcript({ output: 'hi', finalOutput: 'hi' }),
    );
    expect(notJson.json_schema!.reason).toMatch(/not JSON/);
  });

  it('finds tool calls by name, agent and partial arguments', async () => {
    const scores = await score({
      scorers: [
        { type: 'tool_called', tool: 'lookup', args: { city: 'Oslo' } },
        { type: 'tool_called', name: 'wrongArgs', tool: 'lookup', args: { city: 'Rome' } },
        { type: 'tool_called', name: 'wrongAgent', tool: 'lookup', agent: 'Coordinator' },
        { type: 'tool_called', name: 'twice', tool: 'send_message', times: 2 },
      ],
    });
    expect(scores.tool_called!.score).toBe(1);
    expect(scores.wrongArgs).toMatchObject({ score: 0 });
    expect(scores.wrongArgs!.reason).toContain('never with {"city":"Rome"}');
    expect(scores.wrongAgent!.score).toBe(0);
    expect(scores.twice!.score).toBe(1);
  });

  it('follows the send_message path in order, or in any order', async () => {
    const scores = await score({
      scorers: [
        { type: 'delegated', path: ['Researcher', 'Writer', 'Editor'] },
        { type: 'delegated', name: 'reversed', path: ['Writer', 'Researcher'] },
        { type: 'delegated', name: 'any', path: ['Writer', 'Researcher'], ordered: false },
        { type: 'delegated', name: 'from', path: 'Editor', from: 'Coordinator' },
      ],
    });
    expect(scores.delegated!.score).toBe(1);
    expect(scores.reversed!.score).toBe(0.5);
    expect(scores.reversed!.reason).toBe(
      'expected the path Writer → Researcher, got Researcher → Writer → Editor',
    );
    expect(scores.any!.score).toBe(1);
    expect(scores.from!.score).toBe(0);
  });

  it('holds turns, depth, cost and latency to their limits', async () => {
    const scores = await score({
      scorers: [
        { type: 'max_turns', max: 7 },
        { type: 'max_depth', max: 1 },
        { type: 'max_cost', usd: 0.001 },
        { type: 'max_latency', ms: 500 },
      ],
    });
    expect(scores.max_turns).toEqual({ score: 1, reason: 'model calls 7 ≤ 7' });
    expect(scores.max_depth).toEqual({ score: 0, reason: 'depth 2 > 1' });
    expect(scores.max_cost).toEqual({ score: 0, reason: 'cost 0.002 USD > 0.001 USD' });
    expect(scores.max_latency!.score).toBe(1);
    const unpriced = await score(
      { scorers: [{ type: 'max_cost', usd: 1 }] },
      transcript({ cost: undefined }),
    );
    expect(unpriced.max_cost!.reason).toMatch(/cost is unknown/);
  });

  it('runs custom scorers named in the dataset', async () => {
    const scores = await score(
      { scorers: ['short', { type: 'short', name: 'again' }] },
      transcript(),
      {
        custom: {
          short: ({ transcript: t }: { transcript: EvalTranscript }) => ({
            score: t.output.length < 10 ? 1 : 0,
            reason: `${t.output.length} chars`,
          }),
        },
      },
    );
    expect(scores.short).toEqual({ score: 0, reason: '30 chars' });
    expect(scores.again).toEqual(scores.short);
  });

  it('scores similarity with an embedder', async () => {
    const embedder: Embedder = {
      dimensions: 2,
      embed: async (texts) => texts.map((t) => (t.includes('Oslo') ? [1, 0] : [1, 1])),
    };
    const same = await similarity({ embedder, expected: 'Oslo' })({
      case: { id: 'c', input: '' },
      transcript: transcript(),
    });
    expect(same.score).toBeCloseTo(1);
    const apart = await similarity({ embedder, expected: 'Bergen' })({
      case: { id: 'c', input: '' },
      transcript: transcript(),
    });
    expect(apart.score).toBeCloseTo(Math.SQRT1_2);
    expect(apart.reason).toBe('cosine similarity 0.707 to the expected answer');
  });

  it('reports bad scorer specs with the dataset, case and scorer', async () => {
    await expect(score({ scorers: ['nope'] })).rejects.toThrow(
      /cases\.jsonl: case "c": scorers\[0\] \(nope\): unknown scorer "nope"\. Known: exact, contains/,
    );
    await expect(score({ scorers: [{ type: 'regex' }] })).rejects.toThrow(
      /scorers\[0\] \(regex\): pattern: /,
    );
    await expect(score({ scorers: [{ type: 'regex', pattern: '(' }] })).rejects.toThrow(
      /pattern \/\(\/ is invalid/,
    );
    await expect(score({ scorers: ['exact', 'exact'] })).rejects.toThrow(
      /a second scorer named "exact"/,
    );
    await expect(score({ scorers: ['exact'], thresholds: { contains: 1 } })).rejects.toThrow(
      /thresholds\.contains: the case has no scorer "contains" \(its scorers: exact\)/,
    );
    await expect(score({ scorers: [{ type: 'similarity' }] })).rejects.toThrow(/needs an embedder/);
    await expect(score({ scorers: [{ type: 'judge', rubric: 'x' }] })).rejects.toThrow(
      /needs a judge model/,
    );
  });
});
