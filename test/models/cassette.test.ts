import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Cassette,
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  forgetRecordingCassette,
  recordingCassette,
} from '../../src/models/cassette.js';
import type { CassetteInteraction } from '../../src/models/cassette.js';
import { SerializationError } from '../../src/errors.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'colloquy-cassette-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const request = {
  system: 's',
  input: [{ role: 'user', text: 'hi' }],
  tools: [],
  handoffs: [],
  output: 'text',
};
const interaction = (key: string, text = 'hello'): CassetteInteraction => ({
  key,
  label: 'fast',
  stream: false,
  request,
  response: {
    output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }],
    usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
  },
});

function loadError(file: string): SerializationError {
  try {
    Cassette.load(file);
  } catch (error) {
    expect(error).toBeInstanceOf(SerializationError);
    return error as SerializationError;
  }
  throw new Error('expected Cassette.load to throw');
}

describe('Cassette.load errors', () => {
  it('a missing file names the path and how to record it', () => {
    const file = path.join(dir, 'missing.json');
    const error = loadError(file);
    expect(error.code).toBe('SERIALIZATION_ERROR');
    expect(error.message).toContain(`Could not read cassette ${file}`);
    expect(error.message).toContain(`COLLOQUY_RECORD=${file}`);
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('invalid JSON keeps the parser message', async () => {
    const file = path.join(dir, 'bad.json');
    await writeFile(file, '{ "format": ');
    expect(loadError(file).message).toMatch(/Could not read cassette .*bad\.json: .*JSON/);
  });

  it('a newer version is refused, naming the field', async () => {
    const file = path.join(dir, 'v2.json');
    await writeFile(
      file,
      JSON.stringify({ format: CASSETTE_FORMAT, version: 2, interactions: [] }),
    );
    const error = loadError(file);
    expect(error.message).toContain(
      `Cassette ${file} is not a colloquy-cassette version 1 file: version:`,
    );
    expect(error.message).toContain('Record it again');
  });

  it('an interaction without response or events is refused with its index', async () => {
    const file = path.join(dir, 'empty-answer.json');
    const { response: _response, ...bare } = interaction('k1');
    await writeFile(
      file,
      JSON.stringify({
        format: CASSETTE_FORMAT,
        version: 1,
        interactions: [interaction('k0'), bare],
      }),
    );
    expect(loadError(file).message).toContain(
      'interactions.1: an interaction needs response or events',
    );
  });

  it('unknown top-level keys are refused', async () => {
    const file = path.join(dir, 'extra.json');
    await writeFile(
      file,
      JSON.stringify({ format: CASSETTE_FORMAT, version: 1, interactions: [], extra: true }),
    );
    expect(loadError(file).message).toMatch(/\(top level\): .*extra/);
  });
});

describe('Cassette writes', () => {
  it('round-trips through save and load, with the envelope', async () => {
    const file = path.join(dir, 'nested', 'deeper', 'c.json');
    const cassette = new Cassette(file);
    await cassette.append(interaction('k1'));
    await cassette.append(interaction('k2', 'again'));
    const raw = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(raw.format).toBe(CASSETTE_FORMAT);
    expect(raw.version).toBe(CASSETTE_VERSION);
    const loaded = Cassette.load(file);
    expect(loaded.interactions.map((item) => item.key)).toEqual(['k1', 'k2']);
    expect(loaded.path).toBe(path.resolve(file));
  });

  it('redacts given secrets and key-like strings on append', async () => {
    const file = path.join(dir, 'secret.json');
    const cassette = new Cassette(file, [], { secrets: ['tenant-secret-42'] });
    const withSecret = interaction(
      'k1',
      'the key is sk-abcdefghijklmnopqrstuvwx for tenant-secret-42',
    );
    await cassette.append(withSecret);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('sk-abcdefghijklmnopqrstuvwx');
    expect(text).not.toContain('tenant-secret-42');
    expect(text).toContain('[REDACTED]');
  });

  it('serializes concurrent saves so that the last append wins on disk', async () => {
    const file = path.join(dir, 'many.json');
    const cassette = new Cassette(file);
    await Promise.all(Array.from({ length: 10 }, (_, i) => cassette.append(interaction(`k${i}`))));
    expect(Cassette.load(file).interactions).toHaveLength(10);
  });

  it('a failed save rejects, and the next save works once the cause is gone', async () => {
    const blocker = path.join(dir, 'blocked');
    await writeFile(blocker, 'a file where a folder should be');
    const cassette = new Cassette(path.join(blocker, 'c.json'));
    await expect(cassette.append(interaction('k1'))).rejects.toThrow();
    await rm(blocker);
    await cassette.append(interaction('k2'));
    expect(Cassette.load(path.join(blocker, 'c.json')).interactions.map((i) => i.key)).toEqual([
      'k1',
      'k2',
    ]);
  });
});

describe('recordingCassette', () => {
  it('is shared per resolved path until forgotten', () => {
    const file = path.join(dir, 'shared.json');
    const first = recordingCassette(file);
    expect(recordingCassette(path.relative(process.cwd(), file))).toBe(first);
    forgetRecordingCassette(file);
    const second = recordingCassette(file);
    expect(second).not.toBe(first);
    expect(second.interactions).toEqual([]);
    forgetRecordingCassette(file);
  });
});
