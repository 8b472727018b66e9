/**
 * What of an error may leave the server: model-provider failures become `MODEL_ERROR` (502),
 * messages are redacted (API keys and secret-named environment values) and never show the
 * server's file-system paths.
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

/** A message fit for a client: secrets redacted, server paths stripped. */
export function publicMessage(message: string): string {
  return stripServerPaths(redactString(message, { secrets: envSecrets() }));
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
