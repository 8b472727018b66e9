/**
 * The `memory:` block of an ensemble file, on its own so that loading and validating an ensemble
 * does not load the memory backends, the SDK or SQLite (`colloquy invoke` of a script-only
 * ensemble stays light; test/cli/startup.test.ts checks).
 * @module
 */
import { z } from 'zod';

/** `memory:` of an ensemble file. */
export const ensembleMemorySchema = z
  .object({
    /** A profile name (openai, openai-compatible, ollama) or `hashed[:DIMENSIONS]` (offline). */
    embedder: z.string().min(1).optional(),
    recall: z
      .union([
        z.literal(true),
        z
          .object({
            top_k: z.number().int().positive().default(5),
            min_similarity: z.number().min(-1).max(1).default(0.3),
          })
          .strict(),
      ])
      .optional(),
    working: z.boolean().default(false),
  })
  .strict();

/** The parsed `memory:` of an ensemble. */
export type EnsembleMemoryConfig = z.output<typeof ensembleMemorySchema>;
