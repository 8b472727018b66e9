/**
 * What of an error may leave the server: model-provider failures become `MODEL_ERROR` (502),
 * messages are redacted (API keys and secret-named environment values) and never show the
 * server's file-system paths, and are cut to {@link MAX_ERROR_MESSAGE_CHARS} characters.
 * @module
 */
import os from 'node:os';
import path from 'node:path';
import type { ErrorInfo } from '../errors.js';
import { ColloquyError } from '../errors.js';
import { isModelError } from '../models/modelError.js';
import { envSecrets, redactString } from '../redact.js';

/** URL paths of this server's routes: kept in messages (they are hints, not files). */
const ROUTE_ROOTS = /^\/(?:agencies|chats|threads|ensembles|runs|v1|health)(?:\/|$)/;
/** Absolute POSIX paths of two segments or more, and Windows drive paths. */
const ABSOLUTE_PATH =
  /(?<=^|[\s"'`(=:,[])(?!\/\/)(?:\/[^\s"'`():,[\]]+){2,}|\b[A-Za-z]:\\[^\s"'`():,]+/g;

/** Replaces server file-system paths in `text` by `[server path]/<file name>`. */
export function stripServerPaths(text: string): string {
  const home = os.homedir();
  return text.replace(ABSOLUTE_PATH, (match) => {
    if (ROUTE_ROOTS.test(match)) return match;
    if (match === home) return '[server path]';
    return `[server path]/${path.basename(match.replace(/\\/g, '/'))}`;
  });
}

/**
 * The longest error message a client is sent, in characters (about 4 KiB of ASCII): a longer
 * one (say a tool that throws 3 MB of text) is cut, so every error body stays small.
 */
export const MAX_ERROR_MESSAGE_CHARS = 4000;

/**
 * `text` cut to at most `max` characters, with a note of how many were cut (never splitting a
 * surrogate pair).
 */
export function boundText(text: string, max: number = MAX_ERROR_MESSAGE_CHARS): string {
  if (text.length <= max) return text;
  const note = (cut: number) => ` … [${cut} characters cut]`;
  let keep = Math.max(0, max - note(text.length).length);
  const code = text.charCodeAt(keep - 1);
  if (code >= 0xd800 && code <= 0xdbff) keep--; // do not end on half a surrogate pair
  return text.slice(0, keep) + note(text.length - keep);
}

/**
 * A message fit for a client: secrets redacted, server paths stripped, cut to
 * {@link MAX_ERROR_MESSAGE_CHARS} (after redaction, so a cut never leaves part of a secret).
 */
export function publicMessage(message: string): string {
  return boundText(stripServerPaths(redactString(message, { secrets: envSecrets() })));
}

/**
 * The error a client is told about: a model provider's failure (see `markModelError`) becomes a
 * `ColloquyError` with code `MODEL_ERROR`; every other error is returned as is.
 */
export function publicError(error: unknown): unknown {
  if (error instanceof ColloquyError || !isModelError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ColloquyError(
    'MODEL_ERROR',
    `The model provider failed: ${reason}. Check the model profile (provider, model, base_url, API key) ` +
      "and the provider's status; retry if the failure was transient.",
  );
}

/** An {@link ErrorInfo} for a client, with the message made public. */
export function publicErrorInfo(info: ErrorInfo): ErrorInfo {
  return { ...info, message: publicMessage(info.message) };
}
