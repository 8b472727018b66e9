import { describe, expect, it } from 'vitest';
import { spanContent } from '../../src/tracing/spanContent.js';

describe('spanContent', () => {
  const generation = {
    type: 'generation',
    input: [{ role: 'user', content: 'hello sk-secret-123' }],
    output: [{ role: 'assistant', content: 'x'.repeat(5000) }],
    model_config: { temperature: 0.2, instructions: 'Be brief.' },
  } as never;

  it("keeps a model call's input, instructions, settings and output, scrubbed and cut", () => {
    const kept = spanContent(generation, { secrets: ['sk-secret-123'] });
    expect(kept.instructions).toBe('Be brief.');
    expect(JSON.parse(kept.settings!)).toEqual({ temperature: 0.2 });
    expect(kept.input).toContain('hello');
    expect(kept.input).not.toContain('sk-secret-123');
    expect(kept.output!.length).toBe(2001);
    expect(kept.output!.endsWith('…')).toBe(true);
  });

  it("keeps a tool's arguments and nothing at all with content off", () => {
    expect(
      spanContent({ type: 'function', name: 't', input: '{"a":1}', output: 'ok' } as never),
    ).toEqual({
      arguments: '{"a":1}',
    });
    expect(spanContent(generation, { content: false })).toEqual({});
  });
});
