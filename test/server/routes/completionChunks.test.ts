import { describe, expect, it } from 'vitest';
import { completionChunks } from '../../../src/server/routes/completionChunks.js';

/** The chunk object the route used to build and stringify. */
const object = (model: string, delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1_795_000_000,
  model,
  choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
});

describe('completionChunks', () => {
  const tricky = [
    'plain',
    'quote " and \\ back',
    'line\nbreak\r\n',
    'üñí ☃ \u2028 😀',
    '</script>',
    '',
  ];

  it('gives JSON.stringify of the chunk object, byte for byte', () => {
    for (const model of ['bench', 'm "q"', 'ü']) {
      const chunks = completionChunks('chatcmpl-1', 1_795_000_000, model);
      for (const text of tricky) {
        expect(chunks.text(text)).toBe(JSON.stringify(object(model, { content: text })));
      }
      expect(chunks.chunk({}, 'stop')).toBe(JSON.stringify(object(model, {}, 'stop')));
      const calls = { tool_calls: [{ index: 0, id: 'c', type: 'function' }] };
      expect(chunks.chunk(calls)).toBe(JSON.stringify(object(model, calls)));
      expect(chunks.first('callrun_1')).toBe(
        JSON.stringify({
          ...object(model, { role: 'assistant', content: '' }),
          colloquy_run_id: 'callrun_1',
        }),
      );
    }
  });
});
