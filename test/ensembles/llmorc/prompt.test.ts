import { describe, expect, it } from 'vitest';
import { llmOrcPrompt, llmOrcPromptFromContext } from '../../../src/ensembles/llmorc/prompt.js';

describe('llmOrcPrompt', () => {
  it('a first-level agent gets the input unchanged', () => {
    expect(llmOrcPrompt({ input: 'Summarize: cats.' })).toBe('Summarize: cats.');
    expect(llmOrcPrompt({ input: 'x', dependencies: [] })).toBe('x');
  });

  it('a dependent gets the original input and each dependency result, labelled, in order', () => {
    const prompt = llmOrcPrompt({
      input: 'Plan a trip.',
      dependencies: [
        { name: 'researcher', role: 'finds facts', output: 'Paris is big.' },
        { name: 'counter', output: { words: 3 } },
      ],
    });
    expect(prompt).toContain('Input:\nPlan a trip.');
    expect(prompt).toContain('Agent researcher (finds facts):\nParis is big.');
    expect(prompt).toContain('Agent counter:\n{"words":3}');
    expect(prompt.indexOf('researcher')).toBeLessThan(prompt.indexOf('counter'));
    expect(prompt.indexOf('Plan a trip.')).toBeLessThan(prompt.indexOf('researcher'));
  });

  it('failed dependencies are named as missing; input_scope: dependencies leaves the input out', () => {
    const deps = [
      { name: 'ok', output: { response: 'fine' } },
      { name: 'bad', error: 'timed out' },
    ];
    const full = llmOrcPrompt({ input: 'Task', dependencies: deps });
    expect(full).toContain('Agent ok:\nfine');
    expect(full).toContain('- bad: timed out');
    const scoped = llmOrcPrompt({ input: 'Task', dependencies: deps, inputScope: 'dependencies' });
    expect(scoped).toBe('Agent ok:\nfine\n\nFailed agents:\n- bad: timed out');
    expect(llmOrcPrompt({ input: 'Task', dependencies: [{ name: 'none' }] })).toBe('Task');
  });

  it('llmOrcPromptFromContext reads Colloquy agent input', () => {
    const agent = { depends_on: [{ agent_name: 'a' }, { agent_name: 'b' }] };
    expect(llmOrcPromptFromContext(agent, { input: 'T', context: {} })).toBe('T');
    const prompt = llmOrcPromptFromContext(
      agent,
      { input: 'T', context: { a: { response: 'A!' } } },
      { b: 'down' },
    );
    expect(prompt).toContain('Agent a:\nA!');
    expect(prompt).toContain('- b: down');
    expect(
      llmOrcPromptFromContext(
        { ...agent, llmorc: { input_scope: 'dependencies' } },
        { input: 'T', context: { a: { response: 'A!' } } },
      ),
    ).toBe('Agent a:\nA!');
  });
});

describe('llmOrcFanOutPrompt', () => {
  it('names the item number, the task and the item', async () => {
    const { llmOrcFanOutPrompt } = await import('../../../src/ensembles/llmorc/prompt.js');
    expect(llmOrcFanOutPrompt({ input: 'Summarize', item: 'chunk two', index: 1, total: 4 })).toBe(
      'Item 2 of 4.\n\nTask:\nSummarize\n\nItem:\nchunk two',
    );
    expect(llmOrcFanOutPrompt({ input: 'T', item: { a: 1 }, index: 0, total: 1 })).toContain(
      '"a": 1',
    );
  });
});
