/**
 * The shared pino logger factory. Logs go to stderr (stdout stays for command output), and keys,
 * tokens and Authorization headers are redacted by field name and by value pattern.
 * @module
 */
import { readEnv } from './env.js';
import { createRequire } from 'node:module';
import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { REDACTED, redactSecrets, redactString } from './redact.js';
import { isMissingPackage } from './optionalPeer.js';
import { defaultRuntime, defineRuntimeSlot, type ColloquyRuntime } from './runtime.js';

/** Log levels accepted by {@link createLogger} (and the CLI's `--log-level`). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A log level name. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  /** The minimum level written (default `COLLOQUY_LOG_LEVEL`, else `warn`). */
  level?: LogLevel;
  /** Where lines go (default stderr). Tests pass a stream to read them. */
  destination?: DestinationStream;
  /** Exact secret values to scrub from every line (for example, loaded API keys). */
  secrets?: readonly string[];
  /** The logger's name (default `colloquy`). */
  name?: string;
  /** Where `COLLOQUY_LOG_LEVEL` and `COLLOQUY_LOG_FORMAT` are read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/** pino `redact` paths: secret fields at the top level and one or two levels down. */
export const REDACT_PATHS = [
  'apiKey',
  'api_key',
  'authorization',
  'Authorization',
  'token',
  'password',
  'secret',
  '*.apiKey',
  '*.api_key',
  '*.authorization',
  '*.Authorization',
  '*.token',
  '*.password',
  '*.secret',
  '*.headers.authorization',
  '*.headers.Authorization',
  '*.headers["x-api-key"]',
  'headers.authorization',
  'headers.Authorization',
  'headers["x-api-key"]',
];

/** Whether a string is a known log level. */
export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

/**
 * Creates a pino logger with secret redaction.
 *
 * @example
 * ```ts
 * const logger = createLogger({ level: 'info' });
 * logger.info({ profile: 'fast', attempt: 1 }, 'model attempt succeeded');
 * ```
 */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const envLevel = readEnv('COLLOQUY_LOG_LEVEL', options.env);
  const level = options.level ?? (envLevel && isLogLevel(envLevel) ? envLevel : 'warn');
  const redactOptions = { secrets: options.secrets };
  return pino(
    {
      name: options.name ?? 'colloquy',
      level,
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      formatters: { log: (object) => redactSecrets(object, redactOptions) },
      hooks: {
        logMethod(args, method) {
          const cleaned = args.map((arg) =>
            typeof arg === 'string' ? redactString(arg, redactOptions) : arg,
          );
          return method.apply(this, cleaned as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? defaultDestination(options.env),
  );
}

/** pino-pretty (an optional peer, loaded only on a terminal), or undefined when not installed. */
function loadPretty(): ((options: Record<string, unknown>) => DestinationStream) | undefined {
  try {
    return createRequire(import.meta.url)('pino-pretty') as (
      options: Record<string, unknown>,
    ) => DestinationStream;
  } catch (error) {
    if (isMissingPackage(error, 'pino-pretty')) return undefined;
    throw error;
  }
}

/**
 * stderr: pretty and coloured on a terminal when pino-pretty is installed (an optional peer:
 * `npm install pino-pretty`), JSON lines otherwise. `COLLOQUY_LOG_FORMAT=json` keeps JSON on a
 * terminal too.
 */
function defaultDestination(env: NodeJS.ProcessEnv = process.env): DestinationStream {
  const pretty =
    process.stderr.isTTY && readEnv('COLLOQUY_LOG_FORMAT', env) !== 'json'
      ? loadPretty()
      : undefined;
  if (pretty) return pretty({ destination: 2, sync: true, colorize: true, ignore: 'pid,hostname' });
  return pino.destination({ dest: 2, sync: true });
}

/**
 * The logger of a runtime: made from the runtime's environment on first use. The default runtime
 * is shared by every copy of Colloquy in a process (the CLI's and the one a user's agency module
 * loaded), so they log through the same logger.
 */
export const LOGGER_SLOT = defineRuntimeSlot<Logger>('logger', (runtime) =>
  createLogger({ env: runtime.env }),
);

/** The logger of `runtime` (default: the default runtime's). */
export function loggerOf(runtime: ColloquyRuntime = defaultRuntime()): Logger {
  return runtime.use(LOGGER_SLOT);
}

/** The process-wide logger used when no logger is passed (the default runtime's). */
export function getDefaultLogger(): Logger {
  return loggerOf(defaultRuntime());
}

/** Replaces the process-wide logger (the CLI calls this after reading `--log-level`). */
export function setDefaultLogger(logger: Logger): void {
  defaultRuntime().set(LOGGER_SLOT, logger);
}
