import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { ConfigError, StoreError } from '../../src/errors.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { CallbackStore } from '../../src/stores/callback.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

describe('CallbackStore callbacks', () => {
  it('must be functions, checked at construction', () => {
    const save = async () => {};
    expect(() => new CallbackStore({ load: 'nope' as never, save })).toThrow(ConfigError);
    expect(() => new CallbackStore({ load: async () => null, save: undefined as never })).toThrow(
      /"save" must be a function \(got undefined\)/,
    );
    expect(() => new CallbackStore({ load: async () => null, save, list: 42 as never })).toThrow(
      /"list" must be a function \(got number\)/,
    );
    expect(() => new CallbackStore({ load: async () => null, save })).not.toThrow();
  });

  it("wrap a callback's own error as StoreError naming the callback and thread", async () => {
    const store = new CallbackStore({
      load: () => {
        throw new Error('disk on fire');
      },
      save: async () => {},
    });
    const error = await store.getThread('t1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/load\("t1"\) failed: disk on fire/);
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('make getResponse reject with the StoreError of a failing save', async () => {
    const store = new CallbackStore({
      load: async () => null,
      save: async () => {
        throw new Error('quota exceeded');
      },
    });
    const agency = new Agency({
      entryPoints: [new Agent({ name: 'A', instructions: 'a', model: new ScriptedModel(['hi']) })],
      threads: new ThreadManager({ store }),
    });
    const error = await agency.getResponse('hello').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/save\(".*"\) failed: quota exceeded/);
  });
});
