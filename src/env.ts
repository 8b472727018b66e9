/**
 * Every `COLLOQUY_*` environment variable, in one place: its name, what it does, its default, and
 * how its text is read. Code reads a variable through {@link readEnv} (never `process.env.COLLOQUY_…`
 * directly; the architecture test checks), so a variable cannot be read in two ways, and
 * `docs/environment.md` is checked against {@link ENV_VARIABLES}.
 * @module
 */
import { ConfigError } from './errors.js';

/** How a variable's text becomes a value. */
type Kind = 'text' | 'switch' | 'positiveInteger';

/** One documented variable. */
export interface EnvVariable {
  /** What it does, one line (the docs table shows it). */
  readonly description: string;
  /** The value when unset, as the docs state it. */
  readonly default: string;
  readonly kind: Kind;
}

/** The variables Colloquy reads, by name. */
export const ENV_VARIABLES = {
  COLLOQUY_DB: {
    description: 'The default SQLite store file (`:memory:` keeps it in memory).',
    default: './.colloquy/colloquy.db',
    kind: 'text',
  },
  COLLOQUY_API_KEY: {
    description: "The server's shared API key (bearer token), and a secret redacted from traces.",
    default: 'none: the server is open on loopback',
    kind: 'text',
  },
  COLLOQUY_LOG_LEVEL: {
    description: 'Log level: `trace`, `debug`, `info`, `warn`, `error`, `fatal`, `silent`.',
    default: 'warn (`--log-level` wins)',
    kind: 'text',
  },
  COLLOQUY_LOG_FORMAT: {
    description: '`json` writes JSON lines on a terminal too (otherwise pretty on a terminal).',
    default: 'pretty on a terminal, JSON otherwise',
    kind: 'text',
  },
  COLLOQUY_DEBUG: {
    description: 'Any non-empty value: the CLI prints the stack of a failed command (redacted).',
    default: 'off',
    kind: 'switch',
  },
  COLLOQUY_TRACING: {
    description: '`off`/`false`/`0`/`no`: nothing is saved or exported (spans still feed logs).',
    default: 'on',
    kind: 'text',
  },
  COLLOQUY_TRACE_CONTENT: {
    description: '`off`/`false`/`0`/`no`: no message or tool text in any span or export.',
    default: 'on',
    kind: 'text',
  },
  COLLOQUY_RECORD: {
    description: 'Record every model call of the process to this cassette file.',
    default: 'none',
    kind: 'text',
  },
  COLLOQUY_IMPORT_TIMEOUT_MS: {
    description: 'How long `chat`, `dev`, `serve` and `worker` wait for a module to import.',
    default: '30000',
    kind: 'positiveInteger',
  },
  COLLOQUY_STUDIO_DIR: {
    description: "Where the server finds the studio's built files.",
    default: '`dist/studio` beside the server',
    kind: 'text',
  },
  COLLOQUY_SPAWN_HELPER: {
    description: '`0` spawns ensemble scripts directly instead of through the spawn helper.',
    default: 'on',
    kind: 'text',
  },
  COLLOQUY_NO_LLM_ORC_GLOBAL: {
    description:
      "Any non-empty value: ignore llm-orc's global config folder (`~/.config/llm-orc`).",
    default: 'off',
    kind: 'switch',
  },
  COLLOQUY_JWT_SECRET: {
    description: '`serve --auth jwt`: the HS256 shared secret (at least 32 characters).',
    default: 'none',
    kind: 'text',
  },
  COLLOQUY_JWKS_URL: {
    description: "`serve --auth jwt`: the issuer's JWKS URL (RS/PS/ES keys).",
    default: 'none',
    kind: 'text',
  },
  COLLOQUY_JWT_ISSUER: {
    description: '`serve --auth jwt`: when set, `iss` must equal it.',
    default: 'not checked',
    kind: 'text',
  },
  COLLOQUY_JWT_AUDIENCE: {
    description: '`serve --auth jwt`: when set, `aud` must contain it.',
    default: 'not checked',
    kind: 'text',
  },
  COLLOQUY_JWT_ADMIN_CLAIM: {
    description: '`serve --auth jwt`: the claim listing scopes (`colloquy:admin` makes an admin).',
    default: 'scope',
    kind: 'text',
  },
} as const satisfies Record<string, EnvVariable>;

/** A documented variable's name. */
export type EnvName = keyof typeof ENV_VARIABLES;

type ValueOf<K extends Kind> = K extends 'switch'
  ? boolean
  : K extends 'positiveInteger'
    ? number | undefined
    : string | undefined;

/** A variable's value as its kind reads it. */
export type EnvValue<N extends EnvName> = ValueOf<(typeof ENV_VARIABLES)[N]['kind']>;

/**
 * Reads one variable from `env` (default `process.env`). Empty text counts as unset; a switch is
 * on when set to anything; a malformed number is a `ConfigError` naming the variable and the fix.
 */
export function readEnv<N extends EnvName>(
  name: N,
  env: NodeJS.ProcessEnv = process.env,
): EnvValue<N> {
  const raw = env[name];
  const text = raw === undefined || raw.trim() === '' ? undefined : raw;
  const kind: Kind = ENV_VARIABLES[name].kind;
  if (kind === 'switch') return (text !== undefined) as EnvValue<N>;
  if (kind === 'positiveInteger' && text !== undefined) {
    const value = Number(text);
    if (!Number.isInteger(value) || value <= 0) {
      throw new ConfigError(
        `${name} must be a positive whole number (got "${text}"). Set it to e.g. ${ENV_VARIABLES[name].default}, or unset it.`,
      );
    }
    return value as EnvValue<N>;
  }
  return text as EnvValue<N>;
}

/** Whether a switch-like text (`off`, `false`, `0`, `no`, any case) turns a default-on feature off. */
export function isOffValue(text: string | undefined): boolean {
  return /^(off|false|0|no)$/i.test(text ?? '');
}
