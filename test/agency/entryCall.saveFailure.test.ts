/**
 * A call that fails and whose save fails too throws the call's own error (the one callers act
 * on, e.g. MAX_TURNS) and logs the failed save with the chat id; a save that fails after a
 * successful run is the call's error.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { getDefaultLogger, setDefaultLogger } from '../../src/logger.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

const original = getDefaultLogger();
afterEach(() => setDefaultLogger(original));

function capture(): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  setDefaultLogger(pino({ level: 'error' }, stream));
  return lines;
}

/** A memory store whose appends fail (a full disk, say). */
function failingStore(): MemoryStore {
  const store = new MemoryStore();
  store.append = async () => {
    throw new Error('disk full');
  };
  return store;
}

function agencyWith(model: ScriptedModel): Agency {
  const solo = new Agent({ name: 'Solo', instructions: 'x', model });
  return new Agency({
    entryPoints: [solo],
    threads: new ThreadManager({ store: failingStore() }),
    tracing: false,
  });
}

describe('an agency call whose save fails', () => {
  it('throws the run error, not the save error, and logs the save error', async () => {
    const lines = capture();
    const agency = agencyWith(
      new ScriptedModel(() => {
        throw new Error('model exploded');
      }),
    );
    await expect(agency.getResponse('hi', { chatId: 'c1' })).rejects.toThrow('model exploded');
    const logged = lines.find((line) => String(line.msg).includes('saving the threads'));
    expect(logged).toMatchObject({ chatId: 'c1', level: 50 });
    expect(JSON.stringify(logged)).toContain('disk full');
  });

  it('throws the save error when the run succeeded', async () => {
    capture();
    const agency = agencyWith(new ScriptedModel(['fine']));
    await expect(agency.getResponse('hi', { chatId: 'c2' })).rejects.toThrow('disk full');
  });
});
