/**
 * Optional peer dependencies: the drivers and exporters only some projects use (Postgres, Redis,
 * BullMQ, the OTLP exporter, PDF text, OpenAPI parsing, TypeScript modules). A plain
 * `npm install colloquy` leaves them out; the code that needs one imports it here on first use,
 * and a missing one is a {@link ConfigError} that names the exact `npm install` line.
 * @module
 */
import { ConfigError } from './errors.js';

/**
 * The optional peers by package name: what needs them and the packages one install line adds.
 * package.json's `peerDependencies` list the same names (test/optionalPeer.test.ts checks).
 */
export const OPTIONAL_PEERS = {
  pg: { feature: 'The Postgres store (colloquy/postgres)', install: ['pg'] },
  redis: { feature: 'The Redis store (colloquy/redis)', install: ['redis'] },
  ioredis: { feature: 'The BullMQ queue (colloquy/queue)', install: ['bullmq', 'ioredis'] },
  bullmq: { feature: 'The BullMQ queue (colloquy/queue)', install: ['bullmq', 'ioredis'] },
  'cron-parser': {
    feature: 'Cron schedules in-process (schedules with cron:)',
    install: ['cron-parser'],
  },
  '@opentelemetry/exporter-trace-otlp-http': {
    feature: 'The OTLP trace export (OTEL_EXPORTER_OTLP_ENDPOINT, createOtlpListener)',
    install: [
      '@opentelemetry/exporter-trace-otlp-http',
      '@opentelemetry/sdk-trace',
      '@opentelemetry/resources',
    ],
  },
  '@opentelemetry/sdk-trace': {
    feature: 'The OTLP trace export (OTEL_EXPORTER_OTLP_ENDPOINT, createOtlpListener)',
    install: [
      '@opentelemetry/exporter-trace-otlp-http',
      '@opentelemetry/sdk-trace',
      '@opentelemetry/resources',
    ],
  },
  '@opentelemetry/resources': {
    feature: 'The OTLP trace export (OTEL_EXPORTER_OTLP_ENDPOINT, createOtlpListener)',
    install: [
      '@opentelemetry/exporter-trace-otlp-http',
      '@opentelemetry/sdk-trace',
      '@opentelemetry/resources',
    ],
  },
  unpdf: { feature: 'Searching PDF files (an agent\u2019s files option)', install: ['unpdf'] },
  '@readme/openapi-parser': {
    feature: 'Tools from OpenAPI documents (openApiTools)',
    install: ['@readme/openapi-parser'],
  },
  'pino-pretty': { feature: 'Coloured logs on a terminal', install: ['pino-pretty'] },
  tsx: { feature: 'Loading TypeScript agency modules (.ts, .mts)', install: ['tsx'] },
  '@modelcontextprotocol/sdk': {
    feature: 'The MCP server and tools',
    install: ['@modelcontextprotocol/sdk'],
  },
} as const satisfies Record<string, { feature: string; install: readonly string[] }>;

/** The name of an optional peer dependency. */
export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/** The `npm install` line that adds an optional peer (and the packages used with it). */
export function installLine(name: OptionalPeer): string {
  return `npm install ${OPTIONAL_PEERS[name].install.join(' ')}`;
}

/** Whether `error` says that `name` itself (not something it imports) could not be found. */
export function isMissingPackage(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = (error as Error).message ?? '';
  return message.includes(`'${name}'`) || message.includes(`"${name}"`);
}

/** The error for a missing optional peer: what needs it and the line that installs it. */
export function missingPeerError(name: OptionalPeer, cause?: unknown): ConfigError {
  return new ConfigError(
    `${OPTIONAL_PEERS[name].feature} needs the package "${name}", an optional peer dependency ` +
      `that is not installed. Install it: ${installLine(name)}`,
    cause === undefined ? {} : { cause },
  );
}

/**
 * Imports an optional peer dependency, or throws {@link missingPeerError} when it is not
 * installed (any other failure, such as a syntax error inside the package, is rethrown as is).
 * `load` does the import so that bundlers and the type checker see the literal specifier.
 *
 * @example
 * ```ts
 * const { default: pg } = await importOptionalPeer('pg', () => import('pg'));
 * ```
 */
export async function importOptionalPeer<T>(
  name: OptionalPeer,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, name)) throw missingPeerError(name, error);
    throw error;
  }
}
