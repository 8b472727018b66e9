import type { ModelRequest } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { apiKeyEnvFor } from '../../src/models/apiKeys.js';
import {
  createLlmOrcProviderModel,
  createMockModel,
  isMockProfile,
  mockReply,
} from '../../src/models/llmOrcProviders.js';
import { createProviderModel } from '../../src/models/providers.js';

const request = (text: string) =>
  ({
    input: [{ role: 'user', content: text }],
    modelSettings: {},
    tools: [],
    outputType: 'text',
    handoffs: [],
    tracing: false,
  }) as unknown as ModelRequest;

function textOf(
  response: Awaited<ReturnType<ReturnType<typeof createMockModel>['getResponse']>>,
): string {
  const item = response.output[0] as { content: { text: string }[] };
  return item.content[0]!.text;
}

describe('llm-orc providers', () => {
  it('mock* models answer offline with the model name and the start of the prompt', async () => {
    const model = createMockModel('mock-analyst');
    const reply = textOf(await model.getResponse(request('Tell me about graphs and networks.')));
    expect(reply).toBe(mockReply('mock-analyst', 'Tell me about graphs and networks.'));
    expect(reply).toContain('[mock-analyst]');
    expect(mockReply('m', 'x'.repeat(150))).toContain(`${'x'.repeat(100)}...`);
  });

  it('any provider with a model named mock… is the mock, and needs no key', () => {
    expect(isMockProfile({ model: 'mock-1', provider: 'ollama' })).toBe(true);
    expect(isMockProfile({ model: 'llama3', provider: 'mock' })).toBe(true);
    expect(isMockProfile({ model: 'llama3', provider: 'ollama' })).toBe(false);
    expect(apiKeyEnvFor({ model: 'mock-x', provider: 'anthropic-api' })).toBeUndefined();
    const model = createProviderModel(
      { model: 'mock-x', provider: 'anthropic-api' },
      { name: 'p', env: {}, baseDir: '.' },
    );
    expect(model).toBeDefined();
  });

  it('anthropic-api and google-gemini build AI-SDK models and need their API keys', () => {
    const context = (env: NodeJS.ProcessEnv) => ({ name: 'p', env, baseDir: '.' });
    expect(() =>
      createProviderModel({ model: 'claude-x', provider: 'anthropic-api' }, context({})),
    ).toThrow(/Profile "p" uses provider anthropic-api but ANTHROPIC_API_KEY is not set/);
    expect(() =>
      createProviderModel({ model: 'gemini-2.0-flash', provider: 'google-gemini' }, context({})),
    ).toThrow(/GOOGLE_GENERATIVE_AI_API_KEY is not set/);
    const gemini = createProviderModel(
      {
        model: 'gemini-2.0-flash',
        provider: 'google-gemini',
        base_url: 'http://127.0.0.1:9/v1beta',
      },
      context({ GOOGLE_GENERATIVE_AI_API_KEY: 'k' }),
    );
    expect(typeof gemini?.getResponse).toBe('function');
    const claude = createProviderModel(
      { model: 'claude-x', provider: 'anthropic-api' },
      context({ ANTHROPIC_API_KEY: 'k' }),
    );
    expect(typeof claude?.getResponse).toBe('function');
  });

  it('leaves the core providers to the core adapters', () => {
    expect(createLlmOrcProviderModel({ model: 'gpt-4.1', provider: 'openai' })).toBeUndefined();
  });
});
