import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents-core';
import { describe, expect, it, vi } from 'vitest';
import { AI_SDK_ADAPTER_PACKAGES, importAiSdk, LazyModel } from '../../src/models/aiSdk.js';
import { createProviderModel } from '../../src/models/providers.js';

const request = { input: 'hi' } as unknown as ModelRequest;
const response = { output: [], usage: {} } as unknown as ModelResponse;

function fakeModel(): Model {
  return {
    getResponse: vi.fn(async () => response),
    async *getStreamedResponse(): AsyncIterable<StreamEvent> {
      yield { type: 'response_started' } as StreamEvent;
    },
    getRetryAdvice: vi.fn(() => ({ suggested: true })),
  } as unknown as Model;
}

const notFound = (name: string) =>
  Object.assign(new Error(`Cannot find package '${name}' imported from x.js`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });

describe('LazyModel', () => {
  it('loads the real model once, on first use, and delegates calls and streams', async () => {
    const inner = fakeModel();
    const load = vi.fn(async () => inner);
    const lazy = new LazyModel(load);
    expect(load).not.toHaveBeenCalled();
    expect(lazy.getRetryAdvice({} as never)).toBeUndefined(); // nothing loaded yet
    expect(await lazy.getResponse(request)).toBe(response);
    const events: StreamEvent[] = [];
    for await (const event of lazy.getStreamedResponse(request)) events.push(event);
    expect(events).toEqual([{ type: 'response_started' }]);
    expect(load).toHaveBeenCalledTimes(1);
    expect(lazy.getRetryAdvice({} as never)).toEqual({ suggested: true });
  });

  it('retries a failed load on the next call', async () => {
    const inner = fakeModel();
    const load = vi
      .fn<() => Promise<Model>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(inner);
    const lazy = new LazyModel(load);
    await expect(lazy.getResponse(request)).rejects.toThrow('offline');
    expect(await lazy.getResponse(request)).toBe(response);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('importAiSdk', () => {
  it('returns the adapter and the provider module', async () => {
    const aisdk = vi.fn();
    const provider = { createAnthropic: vi.fn() };
    const imported: string[] = [];
    const sdk = await importAiSdk('claude', 'anthropic', '@ai-sdk/anthropic', async (name) => {
      imported.push(name);
      return name === '@ai-sdk/anthropic' ? provider : { aisdk };
    });
    expect(imported).toEqual(['@openai/agents-extensions/ai-sdk', '@ai-sdk/anthropic']);
    expect(sdk.aisdk).toBe(aisdk);
    expect(sdk.provider).toBe(provider);
  });

  it('names the profile, the missing package and the npm install line when a package is missing', async () => {
    const error = await importAiSdk('local', 'ollama', '@ai-sdk/openai-compatible', async () => {
      throw notFound('@openai/agents-extensions');
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONFIG_INVALID' });
    const message = (error as Error).message;
    expect(message).toContain('Profile "local" uses provider ollama');
    expect(message).toContain("Cannot find package '@openai/agents-extensions'");
    expect(message).toContain(
      `npm install ${AI_SDK_ADAPTER_PACKAGES.join(' ')} @ai-sdk/openai-compatible`,
    );
  });

  it('rethrows any other import failure unchanged', async () => {
    const broken = new SyntaxError('bad module');
    await expect(
      importAiSdk('p', 'anthropic', '@ai-sdk/anthropic', async () => {
        throw broken;
      }),
    ).rejects.toBe(broken);
  });
});

describe('createProviderModel with the AI SDK packages missing', () => {
  const missing = async (name: string) => {
    throw notFound(name);
  };

  it('builds the model without importing anything, and fails on first call with the fix', async () => {
    const importModule = vi.fn(missing);
    const model = createProviderModel(
      { provider: 'anthropic', model: 'claude-x' },
      { name: 'claude', env: { ANTHROPIC_API_KEY: 'sk-ant-x' }, baseDir: '.', importModule },
    );
    expect(importModule).not.toHaveBeenCalled();
    await expect(model.getResponse(request)).rejects.toThrow(
      /npm install @openai\/agents-extensions ai @ai-sdk\/anthropic/,
    );
  });

  it('still checks the API key when the model is built', () => {
    expect(() =>
      createProviderModel(
        {
          provider: 'openai-compatible',
          model: 'm',
          base_url: 'http://127.0.0.1:1/v1',
          api_key_env: 'NOPE_KEY',
        },
        { name: 'local', env: {}, baseDir: '.', importModule: missing },
      ),
    ).toThrow(/NOPE_KEY/);
  });
});
