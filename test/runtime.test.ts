/**
 * The runtime: slots made on first use and disposed on close, one default per process, and no
 * in-process state shared between two runtimes (while state kept in a store file still is).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Model } from '@openai/agents-core';
import { afterAll, describe, expect, it } from 'vitest';
import { Agency } from '../src/agency/agency.js';
import { Agent } from '../src/agency/agent.js';
import { ChatBusyError, gateOf } from '../src/agency/chatGate.js';
import { cachedCondition } from '../src/ensembles/conditions.js';
import { spawnHelperOf } from '../src/ensembles/spawnHelper.js';
import { createLogger, getDefaultLogger, loggerOf, setDefaultLogger } from '../src/logger.js';
import { recordingCassette } from '../src/models/cassette.js';
import { ScriptedModel } from '../src/models/scriptedModel.js';
import { createRuntime, defaultRuntime, defineRuntimeSlot } from '../src/runtime.js';
import { leasesInProcess } from '../src/stores/lease.js';
import { MemoryStore } from '../src/stores/memory.js';
import { SqliteStore } from '../src/stores/sqlite.js';
import { ThreadManager } from '../src/threads/threadManager.js';
import { deferred, GatedModel } from './agency/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'colloquy-runtime-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a runtime', () => {
  it('makes a slot on first use, keeps it, and disposes it on close', async () => {
    const disposed: string[] = [];
    let made = 0;
    const slot = defineRuntimeSlot(
      'test.counter',
      () => ({ id: ++made }),
      (value) => void disposed.push(`counter ${value.id}`),
    );
    const runtime = createRuntime();
    expect(runtime.peek(slot)).toBeUndefined();
    expect(runtime.use(slot)).toBe(runtime.use(slot));
    expect(made).toBe(1);
    await runtime.close();
    expect(disposed).toEqual(['counter 1']);
    expect(runtime.use(slot).id).toBe(2); // made again after close
  });

  it('starts with given values and reads its own environment', () => {
    const logger = createLogger({ level: 'silent' });
    const runtime = createRuntime({ env: { COLLOQUY_LOG_LEVEL: 'debug' }, values: { logger } });
    expect(loggerOf(runtime)).toBe(logger);
    expect(loggerOf(createRuntime({ env: { COLLOQUY_LOG_LEVEL: 'debug' } })).level).toBe('debug');
    expect(loggerOf(createRuntime({ env: { COLLOQUY_LOG_LEVEL: 'error' } })).level).toBe('error');
  });

  it('has one default per process, which the default logger belongs to', () => {
    expect(defaultRuntime()).toBe(defaultRuntime());
    const previous = getDefaultLogger();
    const replacement = createLogger({ level: 'silent' });
    try {
      setDefaultLogger(replacement);
      expect(loggerOf(defaultRuntime())).toBe(replacement);
      expect(loggerOf(createRuntime())).not.toBe(replacement);
    } finally {
      setDefaultLogger(previous);
    }
  });
});

describe('two runtimes in one process', () => {
  it('share no gates, in-process leases, caches, cassettes or spawn helper', () => {
    const a = createRuntime();
    const b = createRuntime();
    const store = new MemoryStore();
    expect(gateOf(store, a)).toBe(gateOf(store, a));
    expect(gateOf(store, a)).not.toBe(gateOf(store, b));
    expect(leasesInProcess('dir:/x', a)).toBe(leasesInProcess('dir:/x', a));
    expect(leasesInProcess('dir:/x', a)).not.toBe(leasesInProcess('dir:/x', b));
    expect(cachedCondition('turn < 3', a)).toBe(cachedCondition('turn < 3', a));
    expect(cachedCondition('turn < 3', a)).not.toBe(cachedCondition('turn < 3', b));
    const file = join(dir, 'cassette.json');
    expect(recordingCassette(file, {}, a)).toBe(recordingCassette(file, {}, a));
    expect(recordingCassette(file, {}, a)).not.toBe(recordingCassette(file, {}, b));
    expect(spawnHelperOf(a)).not.toBe(spawnHelperOf(b));
  });

  it('keep separate chat gates, while the SQLite file lease still serializes one chat', async () => {
    const path = join(dir, 'chats.db');
    const store = new SqliteStore({ path });
    const release = deferred();
    const entered = deferred();
    const slow = new GatedModel(new ScriptedModel([{ text: 'first' }]), async () => {
      entered.resolve();
      await release.promise;
    });
    const agencyOn = (runtime: ReturnType<typeof createRuntime>, model: Model) =>
      new Agency({
        entryPoints: [new Agent({ name: 'Helper', instructions: 'Answer.', model })],
        threads: new ThreadManager({ store }),
        tracing: false,
        chatWaitMs: 0,
        runtime,
      });
    const one = createRuntime();
    const first = agencyOn(one, slow);
    const sameRuntime = agencyOn(one, new ScriptedModel([{ text: 'x' }]));
    const otherRuntime = agencyOn(createRuntime(), new ScriptedModel([{ text: 'y' }]));
    try {
      const running = first.getResponse('hello', { chatId: 'c1' });
      await entered.promise;
      // The same runtime: the in-process gate refuses. Another runtime: its gate is free, and the
      // chat's lease in the SQLite file refuses, as it would another process.
      await expect(sameRuntime.getResponse('hi', { chatId: 'c1' })).rejects.toThrow(
        /busy with another call in this process/,
      );
      const other = otherRuntime.getResponse('hi', { chatId: 'c1' });
      await expect(other).rejects.toBeInstanceOf(ChatBusyError);
      await expect(other).rejects.toThrow(/in another process/);
      release.resolve();
      expect((await running).finalOutput).toBe('first');
      expect((await otherRuntime.getResponse('again', { chatId: 'c1' })).finalOutput).toBe('y');
    } finally {
      release.resolve();
      await store.close();
    }
  });
});
