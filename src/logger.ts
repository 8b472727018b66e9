/**
 * The shared pino logger factory. Logs go to stderr (stdout stays for command output), and keys,
 * tokens and Authorization headers are redacted by field name and by value pattern. pino itself
 * loads on the first line written at an enabled level (or any other use of the logger than its
 * level, `isLevelEnabled` and calls below the level), so a command that logs nothing never loads it.
 * @module
 */
import { readEnv } from './env.js';
import { createRequire } from 'node:module';
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

/** pino's numbers for the levels (`silent` is above them all). */
const LEVEL_VALUES: Readonly<Record<LogLevel, number>> = {
  fatal: 60,
  error: 50,
  warn: 40,
  info: 30,
  debug: 20,
  trace: 10,
  silent: Infinity,
};

const requireModule = createRequire(import.meta.url);

/** pino, loaded on first use (a CommonJS package: `require` is synchronous). */
function loadPino(): typeof import('pino') {
  return requireModule('pino') as typeof import('pino');
}

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
  return lazyLogger(level, (current) =>
    loadPino().pino(
      {
        name: options.name ?? 'colloquy',
        level: current,
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
    ),
  );
}

const noop = (): void => {};

/**
 * A pino logger made on first use: until then its level is kept here, `isLevelEnabled` answers
 * from it, and calls below the level do nothing (as pino's own do). Everything else (a line at an
 * enabled level, `child`, `flush`, `on`, ...) makes the pino logger with the current level and
 * goes to it from then on.
 */
function lazyLogger(level: LogLevel, make: (level: LogLevel) => Logger): Logger {
  let real: Logger | undefined;
  let current = level;
  const materialize = (): Logger => (real ??= make(current));
  const enabled = (name: string): boolean =>
    Object.hasOwn(LEVEL_VALUES, name) && LEVEL_VALUES[name as LogLevel] >= LEVEL_VALUES[current];
  const forward = (logger: Logger, prop: PropertyKey): unknown => {
    const value: unknown = Reflect.get(logger, prop, logger);
    return typeof value === 'function' ? (value as () => unknown).bind(logger) : value;
  };
  return new Proxy({} as Logger, {
    get(_target, prop) {
      if (real) return forward(real, prop);
      if (prop === 'level') return current;
      if (prop === 'levelVal') return LEVEL_VALUES[current];
      if (prop === 'isLevelEnabled') return enabled;
      if (prop === 'silent') return noop;
      if (typeof prop === 'string' && Object.hasOwn(LEVEL_VALUES, prop)) {
        if (!enabled(prop)) return noop;
        return (...args: unknown[]) =>
          (forward(materialize(), prop) as (...args: unknown[]) => void)(...args);
      }
      return forward(materialize(), prop);
    },
    set(_target, prop, value: unknown) {
      if (!real && prop === 'level' && typeof value === 'string' && isLogLevel(value)) {
        current = value;
        return true;
      }
      return Reflect.set(materialize(), prop, value);
    },
    has(_target, prop) {
      return Reflect.has(materialize(), prop);
    },
  });
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
  return loadPino().pino.destination({ dest: 2, sync: true });
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
