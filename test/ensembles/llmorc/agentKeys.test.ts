import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  llmOrcAgentShape,
  llmOrcEnsembleShape,
  llmOrcExecutionKeysShape,
  pickLlmOrcAgentSettings,
  pickLlmOrcMetadata,
} from '../../../src/ensembles/llmorc/agentKeys.js';
import { parseEnsemble } from '../../../src/ensembles/load.js';

describe('llm-orc agent keys', () => {
  it('picks only the llm-orc settings an agent has; none is undefined', () => {
    expect(
      pickLlmOrcAgentSettings({
        name: 'a',
        script: 's.js',
        parameters: { n: 2 },
        input_scope: 'dependencies',
        temperature: 0.2,
        options: { num_ctx: 4096 },
        depends_on: [],
      }),
    ).toEqual({
      parameters: { n: 2 },
      input_scope: 'dependencies',
      temperature: 0.2,
      options: { num_ctx: 4096 },
    });
    expect(pickLlmOrcAgentSettings({ name: 'a', script: 's.js' })).toBeUndefined();
    expect(pickLlmOrcAgentSettings({ name: 'a', model: undefined })).toBeUndefined();
  });

  it('picks the top-level metadata, but not script_protocol (a setting of the run)', () => {
    expect(
      pickLlmOrcMetadata({
        name: 'e',
        task: 'old spelling',
        validation: { required: ['a'] },
        test_mode: { mock: true },
        raw_output: false,
        script_protocol: 'llm-orc',
      }),
    ).toEqual({
      task: 'old spelling',
      validation: { required: ['a'] },
      test_mode: { mock: true },
      raw_output: false,
    });
    expect(pickLlmOrcMetadata({ name: 'e', script_protocol: 'colloquy' })).toBeUndefined();
  });

  it('the shapes check what llm-orc allows', () => {
    const agent = z.object(llmOrcAgentShape).strict();
    expect(agent.safeParse({ temperature: 2, max_tokens: 10, ollama_format: 'json' }).success).toBe(
      true,
    );
    expect(agent.safeParse({ ollama_format: { type: 'object' } }).success).toBe(true);
    expect(agent.safeParse({ temperature: -0.1 }).success).toBe(false);
    expect(agent.safeParse({ max_tokens: 1.5 }).success).toBe(false);
    expect(agent.safeParse({ input_scope: 'all' }).success).toBe(false);
    const execution = z.object(llmOrcExecutionKeysShape).strict();
    expect(
      execution.safeParse({ loop: { body: 'b', until: 'x', max_iterations: 1, extra: 1 } }).success,
    ).toBe(false);
    expect(
      execution.safeParse({ loop: { body: 'b', until: 'x', max_iterations: 1 } }).success,
    ).toBe(true);
    const ensemble = z.object(llmOrcEnsembleShape).strict();
    expect(ensemble.safeParse({ seat_contract: [1, 2], output_schema: {} }).success).toBe(true);
    expect(ensemble.safeParse({ raw_output: 'yes' }).success).toBe(false);
  });

  it('a loaded ensemble keeps what an llm-orc user wrote', () => {
    const ensemble = parseEnsemble(
      'name: e\ntask: summarise\nvalidation: { required: [a] }\nagents:\n' +
        '  - { name: a, script: s.js, parameters: { n: 3 }, output_format: json }\n',
    );
    expect(ensemble.default_task).toBe('summarise');
    expect(JSON.stringify(ensemble)).toContain('"validation":{"required":["a"]}');
    expect(JSON.stringify(ensemble.agents[0])).toContain('"parameters":{"n":3}');
    expect(JSON.stringify(ensemble.agents[0])).toContain('"output_format":"json"');
  });
});
