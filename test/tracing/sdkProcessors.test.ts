import { Runner } from '@openai/agents-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createProfileRegistry } from '../../src/models/profiles.js';
import { createModel } from '../../src/models/resolve.js';
import { configureTracing } from '../../src/tracing/configure.js';
import { InMemoryTracingProcessor, sdkSpanName } from '../../src/tracing/sdkProcessors.js';
import { runDemoFlow } from '../models/demoFlow.js';

const registry = createProfileRegistry([
  {
    source: 'test',
    baseDir: process.cwd(),
    profiles: {
      coordinator: {
        provider: 'scripted',
        model: 'c',
        script: [{ tool: 'send_message', args: { recipient: 'Writer', message: 'haiku' } }, 'done'],
      },
      writer: { provider: 'scripted', model: 'w', script: ['a haiku'] },
    },
  },
]);
const options = { env: {}, record: false as const, logger: createLogger({ level: 'silent' }) };

describe('tracing', () => {
  afterEach(() => configureTracing());

  it('nests the send_message run under the tool span', async () => {
    const memory = new InMemoryTracingProcessor();
    configureTracing({ processors: [memory] });
    await runDemoFlow(
      {
        coordinator: createModel('coordinator', registry, options),
        writer: createModel('writer', registry, options),
        runner: new Runner(),
      },
      'go',
    );
    const byId = new Map(memory.spans.map((span) => [span.spanId, span]));
    const writerAgent = memory.spans.find((span) => sdkSpanName(span.data) === 'agent Writer');
    const toolSpan = memory.spans.find(
      (span) => sdkSpanName(span.data) === 'function send_message',
    );
    expect(writerAgent && toolSpan).toBeTruthy();
    const ancestors: string[] = [];
    for (let at = writerAgent?.parentId; at; at = byId.get(at)?.parentId ?? null)
      ancestors.push(at);
    expect(ancestors).toContain(toolSpan!.spanId);
    expect(new Set(memory.spans.map((span) => span.traceId)).size).toBe(1);
  });

  it('records each model attempt as a custom span', async () => {
    const memory = new InMemoryTracingProcessor();
    configureTracing({ processors: [memory] });
    await runDemoFlow(
      {
        coordinator: createModel('coordinator', registry, options),
        writer: createModel('writer', registry, options),
        runner: new Runner(),
      },
      'go',
    );
    const attempts = memory.spans.filter(
      (span) => sdkSpanName(span.data) === 'custom model_attempt',
    );
    expect(attempts).toHaveLength(3);
    expect((attempts[0]!.data as { data: Record<string, unknown> }).data).toMatchObject({
      profile: 'coordinator',
      outcome: 'success',
    });
  });

  it('exports nothing when tracing is off', async () => {
    const memory = new InMemoryTracingProcessor();
    configureTracing({ processors: [memory], disabled: true });
    await runDemoFlow(
      {
        coordinator: createModel('coordinator', registry, options),
        writer: createModel('writer', registry, options),
        runner: new Runner(),
      },
      'go',
    );
    expect(memory.spans).toHaveLength(0);
  });
});
