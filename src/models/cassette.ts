/**
 * Cassettes: JSON files of recorded model interactions.
 *
 * ```json
 * { "format": "colloquy-cassette", "version": 1, "interactions": [
 *   { "key": "3f1c…", "label": "fast", "stream": false, "request": { …normalized… },
 *     "response": { "output": [...], "usage": {...}, "responseId": "…" } } ] }
 * ```
 *
 * Changelog: version 1 — first format.
 *
 * Writes are atomic (a temporary file renamed over the old one) and go through secret
 * redaction, so API keys and Authorization headers are never written.
 * @module
 */
import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { SerializationError } from '../errors.js';
import { redactSecrets } from '../redact.js';
import { defaultRuntime, defineRuntimeSlot, type ColloquyRuntime } from '../runtime.js';
import type { NormalizedRequest } from './requestKey.js';

/** The cassette format name. */
export const CASSETTE_FORMAT = 'colloquy-cassette';
/** The cassette version written by this release. */
export const CASSETTE_VERSION = 1;

/** One recorded response (non-streamed). */
export interface RecordedResponse {
  output: unknown[];
  usage: { requests?: number; inputTokens: number; outputTokens: number; totalTokens: number };
  responseId?: string;
}

/** One recorded model call. */
export interface CassetteInteraction {
  key: string;
  /** The profile or model label that made the call. */
  label?: string;
  stream: boolean;
  request: NormalizedRequest;
  /** The response, for calls made with `getResponse`. */
  response?: RecordedResponse;
  /** Every stream event, for calls made with `getStreamedResponse`. */
  events?: unknown[];
}

/** The whole file. */
export interface CassetteData {
  format: typeof CASSETTE_FORMAT;
  version: typeof CASSETTE_VERSION;
  interactions: CassetteInteraction[];
}

const interactionSchema = z
  .object({
    key: z.string().min(1),
    label: z.string().optional(),
    stream: z.boolean(),
    request: z.object({
      system: z.string(),
      input: z.array(z.any()),
      tools: z.array(z.string()),
      handoffs: z.array(z.string()),
      output: z.string(),
    }),
    response: z
      .object({ output: z.array(z.any()), usage: z.any(), responseId: z.string().optional() })
      .optional(),
    events: z.array(z.any()).optional(),
  })
  .refine(
    (item) => item.response !== undefined || item.events !== undefined,
    'an interaction needs response or events',
  );

/** The schema every cassette is read with. */
export const cassetteSchema = z
  .object({
    format: z.literal(CASSETTE_FORMAT),
    version: z.literal(CASSETTE_VERSION),
    interactions: z.array(interactionSchema),
  })
  .strict();

/** Options of {@link Cassette}. */
export interface CassetteOptions {
  /** Exact secret values to scrub on write (the loaded API keys). */
  secrets?: readonly string[];
}

/** A cassette in memory, bound to a file. */
export class Cassette {
  readonly path: string;
  readonly interactions: CassetteInteraction[];
  readonly #secrets: readonly string[];
  #writing: Promise<void> = Promise.resolve();

  constructor(
    file: string,
    interactions: CassetteInteraction[] = [],
    options: CassetteOptions = {},
  ) {
    this.path = path.resolve(file);
    this.interactions = interactions;
    this.#secrets = options.secrets ?? [];
  }

  /** Reads and checks a cassette file; throws SerializationError saying what is wrong. */
  static load(file: string): Cassette {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    } catch (error) {
      throw new SerializationError(
        `Could not read cassette ${file}: ${(error as Error).message}. Record it with COLLOQUY_RECORD=${file}.`,
        { cause: error },
      );
    }
    const parsed = cassetteSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new SerializationError(
        `Cassette ${file} is not a ${CASSETTE_FORMAT} version ${CASSETTE_VERSION} file: ${issue.path.join('.') || '(top level)'}: ` +
          `${issue.message}. Record it again with COLLOQUY_RECORD=${file}.`,
      );
    }
    return new Cassette(file, parsed.data.interactions as CassetteInteraction[]);
  }

  /** Adds an interaction (redacted) and rewrites the file atomically; resolves when written. */
  append(interaction: CassetteInteraction): Promise<void> {
    this.interactions.push(redactSecrets(interaction, { secrets: this.#secrets }));
    return this.save();
  }

  /** Writes the file atomically; writes are serialized, and one failing does not stop the next. */
  save(): Promise<void> {
    const data: CassetteData = {
      format: CASSETTE_FORMAT,
      version: CASSETTE_VERSION,
      interactions: this.interactions,
    };
    const text = `${JSON.stringify(data, null, 2)}\n`;
    // A failed earlier write was reported to its caller; it must not fail every later one.
    this.#writing = this.#writing
      .catch(() => undefined) // the previous save's caller got its error; this save still runs
      .then(async () => {
        await mkdir(path.dirname(this.path), { recursive: true });
        const temporary = `${this.path}.${process.pid}.${Date.now()}.tmp`;
        await writeFile(temporary, text, 'utf8');
        await rename(temporary, this.path);
      });
    return this.#writing;
  }
}

/** The cassettes a runtime records into, by file path. */
const RECORDING = defineRuntimeSlot('models.recordingCassettes', () => new Map<string, Cassette>());

/**
 * The cassette a process (its default runtime, or `runtime`) records into for a path: one per
 * path, started empty (an existing file is replaced on the first write), shared by every
 * recording model.
 */
export function recordingCassette(
  file: string,
  options: CassetteOptions = {},
  runtime: ColloquyRuntime = defaultRuntime(),
): Cassette {
  const key = path.resolve(file);
  const recording = runtime.use(RECORDING);
  let cassette = recording.get(key);
  if (!cassette) {
    cassette = new Cassette(key, [], options);
    recording.set(key, cassette);
  }
  return cassette;
}

/** Forgets the shared recording cassette of a path (tests record twice into one path). */
export function forgetRecordingCassette(
  file: string,
  runtime: ColloquyRuntime = defaultRuntime(),
): void {
  runtime.peek(RECORDING)?.delete(path.resolve(file));
}
