import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import type { AgencyStreamEvent, RunTag } from '../../src/agency/events.js';
import { toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { GatedModel, chatThreads, deferred, label, send, unmatchedCalls } from './helpers.js';

function agent(name: string, model: ScriptedModel | GatedModel): Agent {
  return new Agent({ name, instructions: `You are ${name}.`, model });
}

/** A → B → D with custom usage; A's final text is long enough for several deltas. */
function build() {
  const a = agent(
    'A',
    new ScriptedModel(
      [
        {
          tool: 'send_message',
          args: { recipient: 'B', message: 'to B', additionalInstructions: null },
          usage: { inputTokens: 31, outputTokens: 3 },
        },
        (request) => ({
          text: `The final answer of A is: ${toolOutputsSinceUser(request)[0]}`,
          usage: { inputTokens: 77, outputTokens: 19 },
        }),
      ],
      { deltaSize: 5 },
    ),
  );
  const b = agent(
    'B',
    new ScriptedModel([send('D', 'to D'), (r) => `B(${toolOutputsSinceUser(r)[0]})`]),
  );
  const d = agent(
    'D',
    new ScriptedModel([{ text: 'D is done here', usage: { inputTokens: 500, outputTokens: 60 } }]),
  );
  return new Agency({
    entryPoints: [a],
    communicationFlows: [
      [a, b],
      [b, d],
    ],
  });
}

async function collect(
  stream: AsyncIterable<AgencyStreamEvent>,
): Promise<{ events: AgencyStreamEvent[]; error: unknown }> {
  const events: AgencyStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

const tagged = (events: AgencyStreamEvent[]) =>
  events.filter((e): e is Extract<AgencyStreamEvent, RunTag> => 'agent' in e && 'runId' in e);

describe('Agency.getResponseStream', () => {
  it('tags the events of nested agents with agent, callerAgent, runId, parentRunId and depth', async () => {
    const { events, error } = await collect(build().getResponseStream('go'));
    expect(error).toBeUndefined();
    const starts = events.filter((e) => e.type === 'agent_run_started');
    expect(starts.map((e) => [e.agent, e.callerAgent, e.depth, e.message])).toEqual([
      ['A', null, 0, 'go'],
      ['B', 'A', 1, 'to B'],
      ['D', 'B', 2, 'to D'],
    ]);
    const [a, b, d] = starts;
    expect(a!.parentRunId).toBeNull();
    expect(b!.parentRunId).toBe(a!.runId);
    expect(d!.parentRunId).toBe(b!.runId);
    const byAgent = new Map(starts.map((s) => [s.agent, s]));
    for (const event of tagged(events)) {
      const start = byAgent.get(event.agent)!;
      expect([event.runId, event.callerAgent, event.parentRunId, event.depth]).toEqual([
        start.runId,
        start.callerAgent,
        start.parentRunId,
        start.depth,
      ]);
    }
    for (const name of ['A', 'B', 'D']) {
      const own = tagged(events)
        .filter((e) => e.agent === name)
        .map((e) => e.type);
      expect(own[0]).toBe('agent_run_started');
      expect(own.at(-1)).toBe('agent_run_completed');
      expect(own).toContain('raw_model_stream_event');
      expect(own).toContain('run_item_stream_event');
    }
    // D runs entirely inside B's send_message call, which runs inside A's.
    const index = (type: string, name: string) =>
      events.findIndex((e) => e.type === type && 'agent' in e && e.agent === name);
    expect(index('agent_run_started', 'D')).toBeGreaterThan(index('agent_run_started', 'B'));
    expect(index('agent_run_completed', 'D')).toBeLessThan(index('agent_run_completed', 'B'));
    expect(index('agent_run_completed', 'B')).toBeLessThan(index('agent_run_completed', 'A'));
    expect(JSON.parse(JSON.stringify(events))).toEqual(events);
  });

  it('streams text in several raw_model_stream_event deltas', async () => {
    const { events } = await collect(build().getResponseStream('go'));
    const deltas = events.flatMap((e) =>
      e.type === 'raw_model_stream_event' && e.agent === 'A' && e.data.type === 'output_text_delta'
        ? [e.data.delta]
        : [],
    );
    expect(deltas.length).toBeGreaterThanOrEqual(5);
    expect(deltas.join('')).toBe('The final answer of A is: B(D is done here)');
    const dDeltas = events.filter(
      (e) =>
        e.type === 'raw_model_stream_event' &&
        e.agent === 'D' &&
        e.data.type === 'output_text_delta',
    );
    expect(dDeltas.length).toBeGreaterThan(1);
  });

  it('ends with run_completed carrying what getResponse returns', async () => {
    const { events } = await collect(build().getResponseStream('go', { chatId: 's1' }));
    const last = events.at(-1)!;
    expect(last.type).toBe('run_completed');
    expect(events.filter((e) => e.type === 'run_completed')).toHaveLength(1);
    const streamed = (last as Extract<AgencyStreamEvent, { type: 'run_completed' }>).result;
    const plain = await build().getResponse('go', { chatId: 's1' });
    expect(Object.keys(streamed).sort()).toEqual(Object.keys(plain).sort());
    expect(streamed.finalOutput).toBe('The final answer of A is: B(D is done here)');
    expect(streamed.finalOutput).toBe(plain.finalOutput);
    expect(streamed.usage).toEqual({
      requests: 5,
      inputTokens: 31 + 77 + 10 + 10 + 500,
      outputTokens: 3 + 19 + 5 + 5 + 60,
      totalTokens: 628 + 92,
    });
    expect(streamed.usage).toEqual(plain.usage);
    expect(streamed.chatId).toBe('s1');
    expect(streamed.lastAgent).toBe(plain.lastAgent);
    const shape = (items: typeof plain.newItems) =>
      items.map((t) => `${t.depth}:${t.agent}<-${t.callerAgent}:${label(t.item)}`);
    expect(shape(streamed.newItems)).toEqual(shape(plain.newItems));
    const startA = events.find((e) => e.type === 'agent_run_started' && e.agent === 'A') as RunTag;
    expect(
      streamed.newItems.filter((t) => t.agent === 'A').every((t) => t.runId === startA.runId),
    ).toBe(true);
  });

  it('ends a failing entry run with an error event, then the iterator throws', async () => {
    const a = agent('A', new ScriptedModel([{ error: 'entry model down' }]));
    const { events, error } = await collect(
      new Agency({ entryPoints: [a] }).getResponseStream('go'),
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/entry model down/);
    const last = events.at(-1)!;
    expect(last).toMatchObject({
      type: 'error',
      error: { message: expect.stringMatching(/entry model down/) },
    });
    expect(events.some((e) => e.type === 'agent_run_failed' && e.agent === 'A')).toBe(true);
    expect(events.some((e) => e.type === 'run_completed')).toBe(false);
  });

  it('ends with an error event for a recipient that is not an entry point', async () => {
    const a = agent('A', new ScriptedModel(['x']));
    const agency = new Agency({
      entryPoints: [a],
      communicationFlows: [[a, agent('B', new ScriptedModel(['x']))]],
    });
    const { events, error } = await collect(agency.getResponseStream('go', { recipient: 'B' }));
    expect((error as Error).name).toBe('AgencyConfigError');
    expect(events).toEqual([
      {
        type: 'error',
        error: expect.objectContaining({ name: 'AgencyConfigError', code: 'AGENCY_INVALID' }),
      },
    ]);
  });

  it('reports a nested failure as agent_run_failed and still completes', async () => {
    const a = agent(
      'A',
      new ScriptedModel([send('B', 'hi'), (r) => `A: ${toolOutputsSinceUser(r)[0]}`]),
    );
    const b = agent('B', new ScriptedModel([{ error: 'B down' }]));
    const { events, error } = await collect(
      new Agency({ entryPoints: [a], communicationFlows: [[a, b]] }).getResponseStream('go'),
    );
    expect(error).toBeUndefined();
    expect(events.find((e) => e.type === 'agent_run_failed')).toMatchObject({
      agent: 'B',
      callerAgent: 'A',
      depth: 1,
    });
    expect(events.at(-1)).toMatchObject({
      type: 'run_completed',
      result: { finalOutput: expect.stringMatching(/^A: Error: B failed to answer: .*B down/) },
    });
  });

  it('aborts nested runs when the consumer leaves the loop early', async () => {
    const gate = deferred();
    const bInner = new ScriptedModel([send('D', 'to D'), 'B done']);
    const dModel = new ScriptedModel(['D done']);
    const aModel = new ScriptedModel([send('B', 'to B'), 'A done']);
    const aFailed = deferred<string>();
    const a = agent('A', aModel);
    const b = agent('B', new GatedModel(bInner, () => gate.promise));
    const agency = new Agency({
      entryPoints: [a],
      communicationFlows: [
        [a, b],
        [b, agent('D', dModel)],
      ],
      hooks: {
        onRunError: (e) => {
          if (e.agent === 'A') aFailed.resolve(e.error.message);
        },
      },
    });
    const seen: string[] = [];
    for await (const event of agency.getResponseStream('go', { chatId: 'brk' })) {
      seen.push(event.type);
      if (event.type === 'agent_run_started' && event.agent === 'B') break;
    }
    gate.resolve();
    expect(await aFailed.promise).toMatch(/stopped reading|abort/i);
    expect(seen.at(-1)).toBe('agent_run_started');
    expect(bInner.calls).toHaveLength(0);
    expect(dModel.calls).toHaveLength(0);
    expect(aModel.calls).toHaveLength(1);
    for (const [threadId, items] of await chatThreads(agency, 'brk')) {
      expect([threadId, unmatchedCalls(items)]).toEqual([threadId, []]);
    }
  });
});
