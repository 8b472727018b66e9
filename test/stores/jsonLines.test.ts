import { describe, expect, it } from 'vitest';
import { SerializationError } from '../../src/errors.js';
import type { SerializedThread } from '../../src/stores/callback.js';
import {
  appendLine,
  headerLine,
  metadataLine,
  parseLog,
  serializeLog,
  THREAD_LOG_VERSION,
} from '../../src/stores/jsonLines.js';

const thread = (fields: Partial<SerializedThread> = {}): SerializedThread => ({
  schemaVersion: 1,
  threadId: 't1',
  chatId: 'c1',
  version: 0,
  metadata: {},
  items: [],
  forkedFrom: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});
const item = (id: string) => ({ id, item: { role: 'user', content: id } });
const FILE = '/data/threads/t1.jsonl';

function parseError(bytes: Buffer, threadId?: string): SerializationError {
  try {
    parseLog(bytes, FILE, threadId);
  } catch (error) {
    expect(error).toBeInstanceOf(SerializationError);
    return error as SerializationError;
  }
  throw new Error('expected parseLog to throw');
}

describe('parseLog', () => {
  it('round-trips a serialized thread', () => {
    const items = [item('a'), item('b')];
    const original = thread({
      version: 2,
      items: items as SerializedThread['items'],
      metadata: { k: 1 },
      forkedFrom: { threadId: 't0', version: 4 },
      updatedAt: '2026-01-02T00:00:00.000Z',
    });
    const log = parseLog(serializeLog(original), FILE)!;
    expect(log.thread).toEqual(original);
    expect(log.validBytes).toBe(serializeLog(original).length);
    expect(log).toMatchObject({ deadBytes: 0, metadataBytes: 0 });
  });

  it('writes no append line for a thread without items', () => {
    const bytes = serializeLog(thread());
    expect(bytes.toString('utf8').split('\n')).toHaveLength(2);
    expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({
      op: 'thread',
      schemaVersion: THREAD_LOG_VERSION,
    });
  });

  it('is null for an empty file or a header torn before its newline', () => {
    expect(parseLog(Buffer.alloc(0), FILE)).toBeNull();
    expect(parseLog(Buffer.from('{"op":"thread","schem'), FILE)).toBeNull();
  });

  it('ignores a torn last line and counts only whole lines as valid', () => {
    const whole = Buffer.concat([headerLine(thread()), appendLine([item('a')] as never, 'T1')]);
    const torn = Buffer.concat([whole, Buffer.from('{"op":"append","items":[{"id":"b"')]);
    const log = parseLog(torn, FILE)!;
    expect(log.thread.items.map((i) => i.id)).toEqual(['a']);
    expect(log.thread.version).toBe(1);
    expect(log.thread.updatedAt).toBe('T1');
    expect(log.validBytes).toBe(whole.length);
  });

  it('applies metadata lines in order and counts the superseded ones as dead bytes', () => {
    const first = metadataLine({ n: 1 }, 'T1');
    const second = metadataLine({ n: 2 }, 'T2');
    const third = metadataLine({ n: 3 }, 'T3');
    const log = parseLog(Buffer.concat([headerLine(thread()), first, second, third]), FILE)!;
    expect(log.thread.metadata).toEqual({ n: 3 });
    expect(log.thread.updatedAt).toBe('T3');
    expect(log.deadBytes).toBe(first.length + second.length);
    expect(log.metadataBytes).toBe(third.length);
  });

  it('names the line and the fix for a damaged line in the middle', () => {
    const bytes = Buffer.concat([
      headerLine(thread()),
      Buffer.from('{not json}\n'),
      appendLine([item('a')] as never, 'T'),
    ]);
    const error = parseError(bytes);
    expect(error.message).toContain(`line 2 of "${FILE}" is not valid JSON`);
    expect(error.message).toContain('Only the last line may be torn');
  });

  it('refuses a header of another schemaVersion, naming the version it reads', () => {
    const header = JSON.parse(headerLine(thread()).toString('utf8')) as Record<string, unknown>;
    const future = Buffer.from(`${JSON.stringify({ ...header, schemaVersion: 3 })}\n`);
    const error = parseError(future);
    expect(error.message).toContain(
      `line 1 of "${FILE}" is not a thread log record (schemaVersion ${THREAD_LOG_VERSION})`,
    );
    expect(error.message).toContain('schemaVersion');
    expect(error.message).toContain('Restore the file from a backup or remove the line.');
  });

  it('refuses an unknown record kind and an append whose item is not an object', () => {
    const header = headerLine(thread());
    const unknownOp = Buffer.concat([header, Buffer.from('{"op":"truncate","at":"T"}\n')]);
    expect(parseError(unknownOp).message).toContain(
      `line 2 of "${FILE}" is not a thread log record`,
    );
    const badItem = Buffer.concat([
      header,
      appendLine([item('a')] as never, 'T'),
      Buffer.from('{"op":"append","items":[{"id":"b","item":"text"}],"at":"T"}\n'),
    ]);
    expect(parseError(badItem).message).toContain(`line 3 of "${FILE}"`);
  });

  it('refuses a file that holds another thread, saying how to fix it', () => {
    const error = parseError(serializeLog(thread()), 'other');
    expect(error.message).toBe(
      `JsonFileStore: "${FILE}" holds thread "t1", but "other" was asked for. Move the file back to its own name.`,
    );
  });

  it('keeps extra fields of items (loose objects)', () => {
    const withMeta = { id: 'a', item: { role: 'user', content: 'x' }, meta: { agent: 'A' } };
    const log = parseLog(
      Buffer.concat([headerLine(thread()), appendLine([withMeta] as never, 'T')]),
      FILE,
    )!;
    expect(log.thread.items[0]).toEqual(withMeta);
  });
});
