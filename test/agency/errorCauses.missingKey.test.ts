import { afterEach, describe, expect, it } from 'vitest';
// As a user would: the package entry point (it sets the SDK's default OpenAI model provider).
import '../../src/index.js';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { missingKeyIn, surfacedError } from '../../src/agency/errorCauses.js';
import { ColloquyError, StoreError } from '../../src/errors.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

const saved = process.env.OPENAI_API_KEY;
afterEach(() => {
  if (saved === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = saved;
});

describe('missing OpenAI key', () => {
  it('maps the OpenAI client error to MISSING_API_KEY, and leaves other errors alone', () => {
    const raw = new Error(
      'Missing credentials. Please pass an `apiKey`, or set the `OPENAI_API_KEY` environment variable.',
    );
    const mapped = missingKeyIn({ error: raw });
    expect(mapped).toBeInstanceOf(ColloquyError);
    expect(mapped!.code).toBe('MISSING_API_KEY');
    expect(mapped!.message).toMatch(/OPENAI_API_KEY is not set\. Export OPENAI_API_KEY=sk-/);
    const other = new Error('rate limited');
    expect(surfacedError(other)).toBe(other);
    const store = new StoreError('disk full');
    expect(surfacedError({ cause: store })).toBe(store);
  });

  it('an agency with model: "gpt-4.1-mini" and no key fails with MISSING_API_KEY', async () => {
    delete process.env.OPENAI_API_KEY;
    const agency = new Agency({
      entryPoints: [new Agent({ name: 'A', instructions: 'x', model: 'gpt-4.1-mini' })],
      threads: new ThreadManager({ store: new MemoryStore() }),
    });
    await expect(agency.getResponse('hi')).rejects.toMatchObject({ code: 'MISSING_API_KEY' });
  });
});
