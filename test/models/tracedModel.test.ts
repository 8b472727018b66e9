import { afterAll, describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { modelLabel, TracedModel, tracedModel } from '../../src/models/tracedModel.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { traceStoreFor } from '../../src/stores/traceStores.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { setupTracing, shutdownTracing } from '../../src/tracing/setup.js';

afterAll(() => shutdownTracing());

describe('TracedModel', () => {
  it('wraps a model once, and leaves models that trace themselves alone', () => {
    const scripted = new ScriptedModel(['hi']);
    const traced = tracedModel(scripted);
    expect(traced).toBeInstanceOf(TracedModel);
    expect(tracedModel(traced)).toBe(traced);
    class OpenAIResponsesModel extends ScriptedModel {}
    const own = new OpenAIResponsesModel(['x']);
    expect(tracedModel(own)).toBe(own);
    expect(modelLabel(scripted)).toBe('scripted');
  });

  it('records a generation span per call, streamed or not, with usage', async () => {
    setupTracing({ env: {} });
    const agent = new Agent({
      name: 'Solo',
      instructions: 'x',
      model: new ScriptedModel(
        [{ text: 'one', usage: { inputTokens: 7, outputTokens: 3 } }, 'two'],
        {
          repeatLast: true,
        },
      ),
    });
    const agency = new Agency({
      entryPoints: [agent],
      threads: new ThreadManager({ store: new MemoryStore() }),
    });
    await agency.getResponse('a', { chatId: 'tm-1' });
    for await (const event of agency.getResponseStream('b', { chatId: 'tm-2' })) void event;
    const traces = await traceStoreFor(agency.threads.store);
    const spansOf = async (chatId: string) => {
      const [summary] = await traces.listTraces({ chatId });
      return (await traces.getTrace(summary!.traceId))!.spans;
    };
    const [plain] = (await spansOf('tm-1')).filter((span) => span.kind === 'generation');
    expect(plain!.attributes).toMatchObject({
      model: 'scripted',
      inputTokens: 7,
      outputTokens: 3,
      agent: 'Solo',
    });
    const streamed = (await spansOf('tm-2')).filter((span) => span.kind === 'generation');
    expect(streamed).toHaveLength(1);
    expect(streamed[0]!.attributes).toMatchObject({ inputTokens: 10, outputTokens: 5 });
  });
});
