/**
 * The `--store` spec syntax, parsed in one place: `openStore` opens what it names and the CLI's
 * read-only commands find the SQLite file in it, so both read a spec the same way. Parsing loads
 * no driver.
 * @module
 */
import { ConfigError } from '../errors.js';
import { defaultStorePath } from '../paths.js';

/** What a store spec names. */
export type StoreSpec =
  | { kind: 'memory' }
  | { kind: 'sqlite'; path: string }
  | { kind: 'dir'; dir: string }
  | { kind: 'redis'; url: string }
  | { kind: 'postgres'; url: string }
  | { kind: 'conversations'; baseURL: string };

/** The spec syntax, for error messages and `--store` help. */
export const STORE_SPEC_SYNTAX =
  'memory, sqlite:PATH (or a bare file path), dir:PATH, redis://HOST:PORT, postgres://USER@HOST:PORT/DB or conversations:https://api.openai.com/v1';

/**
 * Parses a spec; no spec (or a blank one) is the embedded default, SQLite at `$COLLOQUY_DB` or
 * `./.colloquy/colloquy.db`. A malformed spec is a `ConfigError` that shows the syntax.
 */
export function parseStoreSpec(
  spec: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): StoreSpec {
  if (spec === undefined || spec.trim() === '')
    return { kind: 'sqlite', path: defaultStorePath(env) };
  if (spec === 'memory') return { kind: 'memory' };
  if (spec.startsWith('sqlite:')) return { kind: 'sqlite', path: nonEmpty(spec, 'sqlite:') };
  if (spec.startsWith('dir:')) return { kind: 'dir', dir: nonEmpty(spec, 'dir:') };
  if (spec.startsWith('conversations:'))
    return { kind: 'conversations', baseURL: conversationsURL(spec) };
  if (/^rediss?:\/\//.test(spec)) return { kind: 'redis', url: spec };
  if (/^postgres(ql)?:\/\//.test(spec)) return { kind: 'postgres', url: spec };
  if (!/^[a-z][a-z0-9+.-]*:/i.test(spec)) return { kind: 'sqlite', path: spec };
  throw new ConfigError(`Store "${spec}" is not a store spec. Use ${STORE_SPEC_SYNTAX}.`);
}

function nonEmpty(spec: string, prefix: string): string {
  const rest = spec.slice(prefix.length);
  if (rest.trim() === '')
    throw new ConfigError(`Store "${spec}" names no path: write ${prefix}PATH.`);
  return rest;
}

/** The base URL of a `conversations:` spec (`conversations:openai` is OpenAI's own). */
function conversationsURL(spec: string): string {
  const rest = spec.slice('conversations:'.length).trim();
  if (rest === 'openai') return 'https://api.openai.com/v1';
  if (!/^https?:\/\//.test(rest))
    throw new ConfigError(
      `Store "${spec}" names no base URL: write conversations:https://api.openai.com/v1 (OpenAI) or conversations:https://NAME.openai.azure.com/openai/v1 (Azure).`,
    );
  return rest;
}
