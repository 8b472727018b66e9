// Ensemble traces with the LLM agents' model calls: run → step → ensemble_agent → model call,
// GenAI-named when exported, with tokens; untraced runs open no traces at all.
import { afterAll, describe, expect, it } from 'vitest';
import { LlmInputHandler } from '../../src/ensembles/inputHandlers.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import { createEnsembleTracer } from '../../src/ensembles/tracing.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { lastUserText } from '../../src/models/requestText.js';
import { MemoryStore } from '../../src/stores/memory.js';
import type { SpanRecord, StoredTrace } from '../../src/stores/traceStore.js';
import { traceStoreFor } from '../../src/stores/traceStores.js';
import { genAiAttributes, genAiName } from '../../src/tracing/otlp.js';
import { getTraceRecorder, setupTracing, shutdownTracing } from '../../src/tracing/setup.js';
import { ensembleFrom, tempDir } from './helpers.js';

afterAll(() => shutdownTracing());

const YAML = `name: review
agents:
  - name: writer
    model_profile: p
    system_prompt: Write.
  - name: checker
    model_profile: p
    system_prompt: Check.
  - name: editor
    model_profile: p
    system_prompt: Edit.
    depends_on: [writer, checker]
`;

function model(): ScriptedModel {
  let calls = 0;
  return new ScriptedModel((request) => {
    calls += 1;
    return {
      text: `reply ${calls} to ${lastUserText(request).slice(0, 12)}`,
      usage: { inputTokens: 10 * calls, outputTokens: calls },
    };
  });
}

async function tracedRun(runId: string): Promise<StoredTrace> {
  setupTracing({ env: {} });
  const store = new MemoryStore();
  const tracer = await createEnsembleTracer({ store });
  const shared = model();
  await runEnsemble(ensembleFrom(YAML, tempDir()), {
    store,
    runId,
    createModel: () => shared,
    onEvent: tracer.onEvent,
  });
  await tracer.finish();
  const traces = await traceStoreFor(store);
  const [summary] = await traces.listTraces({ runId });
  return (await traces.getTrace(summary!.traceId))!;
}

function parentOf(trace: StoredTrace, span: SpanRecord): SpanRecord | undefined {
  return trace.spans.find((candidate) => candidate.spanId === span.parentId);
}

describe('ensemble traces with model calls', () => {
  it('nest one model span per LLM agent call under its agent span, with tokens', async () => {
    const trace = await tracedRun('models-1');
    const models = trace.spans.filter((span) => span.kind === 'generation');
    expect(models).toHaveLength(3);
    const owners = models.map((span) => parentOf(trace, span)!);
    expect(owners.map((span) => span.kind)).toEqual([
      'ensemble_agent',
      'ensemble_agent',
      'ensemble_agent',
    ]);
    expect(owners.map((span) => span.name).sort()).toEqual(['checker', 'editor', 'writer']);
    for (const [i, span] of models.entries()) {
      expect(span.attributes.agent).toBe(owners[i]!.name);
      expect(span.attributes.inputTokens).toBeGreaterThan(0);
      // The agent span carries its model calls' tokens.
      expect(owners[i]!.attributes.inputTokens).toBe(span.attributes.inputTokens);
      expect(owners[i]!.attributes.outputTokens).toBe(span.attributes.outputTokens);
    }
    // The SDK's own agent spans are folded into the ensemble_agent spans: no duplicates.
    expect(trace.spans.filter((span) => span.kind === 'agent')).toEqual([]);
    const total = models.reduce((sum, span) => sum + Number(span.attributes.inputTokens), 0);
    expect(trace.trace.usage?.inputTokens).toBe(total);
    const editor = owners.find((span) => span.name === 'editor')!;
    expect(parentOf(trace, parentOf(trace, editor)!)!.kind).toBe('ensemble_run');
    expect(parentOf(trace, editor)!.name).toBe('step 2');
  });

  it('exports them with GenAI names and attributes (invoke_agent → chat)', async () => {
    const trace = await tracedRun('models-2');
    const model = trace.spans.find((span) => span.kind === 'generation')!;
    const agent = parentOf(trace, model)!;
    expect(genAiName(agent).name).toBe(`invoke_agent ${agent.name}`);
    expect(genAiName(model).name).toMatch(/^chat /);
    expect(genAiAttributes(model, trace)).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.agent.name': agent.name,
      'gen_ai.usage.input_tokens': model.attributes.inputTokens,
    });
  });

  it('opens no trace for a run without a tracer (no trace per agent call)', async () => {
    setupTracing({ env: {} });
    const ended: string[] = [];
    const stop = getTraceRecorder().subscribe({
      onTraceEnd: (trace) => void ended.push(trace.trace.name),
    });
    try {
      const result = await runEnsemble(ensembleFrom(YAML, tempDir()), {
        store: new MemoryStore(),
        runId: 'untraced',
        createModel: () => model(),
      });
      expect(result.usage.requests).toBe(3);
    } finally {
      stop();
    }
    expect(ended).toEqual([]);
  });

  it("nests a tool call and the simulated user's model call under the asking agent", async () => {
    setupTracing({ env: {} });
    const store = new MemoryStore();
    const tracer = await createEnsembleTracer({ store });
    await runEnsemble(
      ensembleFrom('name: ask\nagents:\n  - { name: interviewer, model_profile: p }\n', tempDir()),
      {
        store,
        runId: 'ask-1',
        createModel: () =>
          new ScriptedModel([
            { tool: 'request_user_input', args: { prompt: 'Your name?' } },
            '{"name": "Ada"}',
          ]),
        inputHandler: new LlmInputHandler({ model: new ScriptedModel(['Ada.']) }),
        onEvent: tracer.onEvent,
      },
    );
    await tracer.finish();
    const traces = await traceStoreFor(store);
    const [summary] = await traces.listTraces({ runId: 'ask-1' });
    const trace = (await traces.getTrace(summary!.traceId))!;
    const shape = trace.spans.map((span) => `${span.kind}<${parentOf(trace, span)?.kind ?? '-'}`);
    expect(shape).toEqual([
      'ensemble_run<-',
      'ensemble_step<ensemble_run',
      'ensemble_agent<ensemble_step',
      'generation<ensemble_agent',
      'function<ensemble_agent',
      'agent<function',
      'generation<agent',
      'generation<ensemble_agent',
    ]);
    const user = trace.spans.find((span) => span.kind === 'agent')!;
    expect(user.attributes).toMatchObject({ agent: 'simulated_user', caller: 'interviewer' });
  });
});
