/**
 * The serialisable options of one agency call, as one zod schema: the source of
 * `GetResponseOptions`' JSON fields, of the HTTP body (which extends it) and of what a queued
 * call's job carries (untouched). A field added here reaches every path with no other edit.
 * @module
 */
import type { JsonSchemaDefinition } from '@openai/agents-core';
import { z } from 'zod';

/** An id (chat, user): 1 to 200 characters without control characters. */
export const callIdSchema = z
  .string()
  .min(1, 'expected a non-empty id')
  .max(200, 'expected an id of at most 200 characters')
  .refine(
    (id) => ![...id].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127),
    'expected an id without control characters',
  );

/** An attachment as JSON: base64 bytes with their media type, or an uploaded file id. */
export const attachmentSchema = z.union([
  z
    .object({
      data: z.string().min(1, 'expected base64 bytes'),
      mediaType: z.string().min(1),
      filename: z.string().optional(),
    })
    .strict(),
  z
    .object({
      fileId: z.string().min(1),
      kind: z.enum(['image', 'file']).optional(),
      filename: z.string().optional(),
    })
    .strict(),
]);

/** A structured output as the SDK's `outputType` takes it (a JSON schema definition). */
const outputTypeSchema = z.custom<JsonSchemaDefinition>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'json_schema',
  'expected a JSON schema definition ({ type: "json_schema", name, strict, schema })',
);

/**
 * Every call option that can travel as JSON (through HTTP or a queue). `GetResponseOptions` adds
 * what cannot (the abort signal, local attachment paths and bytes).
 */
export const callOptionsSchema = z
  .object({
    /** The entry point to talk to (default: the first). */
    recipient: z.string().min(1).optional(),
    /** The chat to continue. */
    chatId: callIdSchema.optional(),
    /** The person or resource the call is for: the scope of its memory (see `memory`). */
    userId: callIdSchema.optional(),
    /** Your context object, passed to every tool, guardrail and nested run of the call. */
    context: z.unknown().optional(),
    /** Files to send with the message, as JSON. */
    attachments: z.array(attachmentSchema).optional(),
    /** A structured output for the entry point, for this call only. */
    outputType: outputTypeSchema.optional(),
    /** Extra instructions for the entry point, for this call only. */
    additionalInstructions: z.string().optional(),
    /** The turn budget of every agent run of the call. */
    maxTurns: z.number().int().positive().optional(),
  })
  .strict();

/** The serialisable options of a call (see {@link callOptionsSchema}). */
export type CallOptions = z.output<typeof callOptionsSchema>;

/** The names of the serialisable call options. */
export const CALL_OPTION_KEYS = Object.keys(callOptionsSchema.shape) as Array<keyof CallOptions>;

/**
 * The serialisable part of `options` (every key of {@link callOptionsSchema} that is set), e.g.
 * to put a call on a queue; the signal and other process-local values are left out.
 */
export function serialisableCallOptions(options: object): CallOptions {
  const source = options as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const key of CALL_OPTION_KEYS) {
    if (source[key] !== undefined) picked[key] = source[key];
  }
  return picked as CallOptions;
}
