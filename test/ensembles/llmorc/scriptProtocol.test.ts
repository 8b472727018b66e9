import { describe, expect, it } from 'vitest';
import { parseEnsemble } from '../../../src/ensembles/load.js';
import {
  dependencyResults,
  isColloquyStdin,
  llmOrcInputFromColloquy,
  llmOrcScriptInput,
  parseLlmOrcOutput,
  responseText,
  scriptProtocolOf,
} from '../../../src/ensembles/llmorc/scriptProtocol.js';

describe('llm-orc script protocol', () => {
  it('a first-level script gets { input, parameters, context } and INPUT_DATA = the input', () => {
    expect(llmOrcScriptInput({ agent: 'a', input: 'text', parameters: { n: 1 } })).toEqual({
      stdin: { input: 'text', parameters: { n: 1 }, context: {} },
      env: { INPUT_DATA: 'text', INPUT_TEXT: 'text', AGENT_PARAMETERS: '{"n":1}' },
    });
  });

  it('a dependent gets { agent_name, input_data, context, dependencies } and INPUT_DATA = that JSON', () => {
    const deps = { up: { response: 'hi', status: 'success' as const } };
    const { stdin, env } = llmOrcScriptInput({ agent: 'b', input: 'text', dependencies: deps });
    expect(stdin).toEqual({ agent_name: 'b', input_data: 'text', context: {}, dependencies: deps });
    expect(JSON.parse(env.INPUT_DATA!)).toEqual(stdin);
    expect(env).toMatchObject({ INPUT_TEXT: 'text', AGENT_PARAMETERS: '{}' });
  });

  it('responseText: { response } is its text, other outputs are JSON', () => {
    expect(responseText({ response: 'plain' })).toBe('plain');
    expect(responseText({ response: 'x', more: 1 })).toBe('{"response":"x","more":1}');
    expect(responseText(undefined)).toBeNull();
  });

  it('dependencyResults lists outputs and failures of the named dependencies only', () => {
    expect(
      dependencyResults(
        ['a', 'b', 'c'],
        { a: { response: 'A' }, z: { response: 'Z' } },
        { b: 'boom' },
      ),
    ).toEqual({
      a: { response: 'A', status: 'success' },
      b: { response: null, status: 'failed', error: 'boom' },
    });
  });

  it('parseLlmOrcOutput keeps any stdout: objects, plain text, arrays, empty', () => {
    expect(parseLlmOrcOutput('{"a": 1}\n')).toEqual({ output: { a: 1 }, response: '{"a": 1}' });
    expect(parseLlmOrcOutput('  hello\n')).toEqual({
      output: { response: 'hello' },
      response: 'hello',
    });
    expect(parseLlmOrcOutput('[1, 2]')).toEqual({
      output: { response: '[1, 2]' },
      response: '[1, 2]',
    });
    expect(parseLlmOrcOutput('')).toEqual({ output: { response: '' }, response: '' });
  });

  it('"success": false (or 0) is a failure with the script\'s error', () => {
    expect(parseLlmOrcOutput('{"success": false, "error": "bad input"}').failure).toBe('bad input');
    expect(parseLlmOrcOutput('{"success": 0}').failure).toMatch(/no error message/);
    expect(parseLlmOrcOutput('{"success": true, "error": "warning only"}').failure).toBeUndefined();
  });

  it('converts Colloquy stdin: config becomes parameters, context outputs become dependencies', () => {
    const colloquy = {
      input: 'task',
      context: { up: { n: 2 } },
      config: { k: 'v' },
      conversation_state: {},
    };
    expect(isColloquyStdin(colloquy)).toBe(true);
    expect(isColloquyStdin({ input: 'x' })).toBe(false);
    expect(llmOrcInputFromColloquy('me', colloquy).stdin).toEqual({
      agent_name: 'me',
      input_data: 'task',
      context: {},
      dependencies: { up: { response: '{"n":2}', status: 'success' } },
    });
    expect(llmOrcInputFromColloquy('me', { ...colloquy, context: {} }).stdin).toEqual({
      input: 'task',
      parameters: { k: 'v' },
      context: {},
    });
    expect(llmOrcInputFromColloquy('me', { other: 1 })).toEqual({ stdin: { other: 1 }, env: {} });
  });

  it('one protocol: scriptProtocolOf says llm-orc for every agent, script_protocol: is accepted and ignored', () => {
    const text = (extra = '') =>
      `name: x\n${extra}agents:\n  - name: a\n    script: ./a.js\n  - name: b\n    script: ./b.js\n    parameters: { k: 1 }\n`;
    const plain = parseEnsemble(text(), { file: '/p/ensembles/x.yaml' });
    expect(plain.agents.map((a) => scriptProtocolOf(a, plain))).toEqual(['llm-orc', 'llm-orc']);
    const declared = parseEnsemble(text('script_protocol: colloquy\n'), {
      file: '/p/ensembles/x.yaml',
    });
    expect(declared.agents.map((a) => scriptProtocolOf(a, declared))).toEqual([
      'llm-orc',
      'llm-orc',
    ]);
  });

  it('an envelope { success, data: {...} } has its data as the output; anything else with success is kept whole', () => {
    expect(parseLlmOrcOutput('{"success": true, "data": {"n": 1}}').output).toEqual({ n: 1 });
    expect(parseLlmOrcOutput('{"success": true, "n": 1}').output).toEqual({ success: true, n: 1 });
    expect(parseLlmOrcOutput('{"success": true, "data": {"n": 1}, "extra": 2}').output).toEqual({
      success: true,
      data: { n: 1 },
      extra: 2,
    });
    expect(parseLlmOrcOutput('{"success": true, "data": [1, 2]}').output).toEqual({
      success: true,
      data: [1, 2],
    });
    expect(
      parseLlmOrcOutput('{"success": true, "data": {}, "agent_requests": [{"prompt": "?"}]}'),
    ).toMatchObject({ output: {}, agentRequests: [{ prompt: '?' }] });
    // Without a boolean success (llm-orc's flat reply), agent_requests is plain data.
    expect(parseLlmOrcOutput('{"agent_requests": []}').agentRequests).toBeUndefined();
  });
});

describe('llm-orc fan-out instances', () => {
  it('a fan-out script instance gets its item, its index, the total and the base input', async () => {
    const { llmOrcFanOutScriptInput } =
      await import('../../../src/ensembles/llmorc/scriptProtocol.js');
    expect(
      llmOrcFanOutScriptInput({
        agent: 'p',
        item: { id: 2 },
        index: 1,
        total: 3,
        input: 'task',
        parameters: { x: 1 },
      }),
    ).toEqual({
      stdin: {
        agent_name: 'p',
        input: { id: 2 },
        chunk_index: 1,
        total_chunks: 3,
        base_input: 'task',
        context: {},
      },
      env: { INPUT_DATA: '{"id":2}', INPUT_TEXT: '{"id":2}', AGENT_PARAMETERS: '{"x":1}' },
    });
    expect(
      llmOrcFanOutScriptInput({ agent: 'p', item: 'chunk', index: 0, total: 1, input: 't' }).env
        .INPUT_TEXT,
    ).toBe('chunk');
  });
});
