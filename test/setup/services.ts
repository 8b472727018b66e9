/**
 * Vitest global setup: starts a real Redis and a real Postgres on loopback for the `.int.test.ts`
 * files (through `scripts/services.sh`), hands their URLs to the tests, and stops them when the
 * run ends, even when tests fail.
 *
 * - URLs reach tests through `inject('redisUrl')` / `inject('postgresUrl')` (see
 *   `serviceUrls.ts`) and child processes through `COLLOQUY_TEST_REDIS_URL` /
 *   `COLLOQUY_TEST_POSTGRES_URL`. When those variables are already set (services you run by hand),
 *   they are used as they are and nothing is started; they must point at a loopback address.
 * - A missing server binary fails the run under `CI=true`; otherwise it prints a banner and the
 *   tests that need the server skip with that reason.
 * @module
 */
import { execFileSync, execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the test Redis, or `null` when it is not available (see `redisSkipReason`). */
    redisUrl: string | null;
    /** URL of the test Postgres, or `null` when it is not available. */
    postgresUrl: string | null;
    /** Why Redis tests skip, or `null` when Redis is available. */
    redisSkipReason: string | null;
    /** Why Postgres tests skip, or `null` when Postgres is available. */
    postgresSkipReason: string | null;
  }
}

const script = fileURLToPath(new URL('../../scripts/services.sh', import.meta.url));
const run = promisify(execFile);

interface Service {
  name: 'Redis' | 'Postgres';
  envVar: 'COLLOQUY_TEST_REDIS_URL' | 'COLLOQUY_TEST_POSTGRES_URL';
  line: 'REDIS_URL' | 'POSTGRES_URL';
  binary: string;
  missing: string;
}

const services: Service[] = [
  {
    name: 'Redis',
    envVar: 'COLLOQUY_TEST_REDIS_URL',
    line: 'REDIS_URL',
    binary: 'redis-server',
    missing: 'redis-server',
  },
  {
    name: 'Postgres',
    envVar: 'COLLOQUY_TEST_POSTGRES_URL',
    line: 'POSTGRES_URL',
    binary: 'postgresql (/usr/lib/postgresql/*/bin/initdb)',
    missing: 'postgresql',
  },
];

/** Throws unless `url` names a loopback host: tests never talk to another machine. */
function checkLoopback(envVar: string, url: string): void {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) {
    throw new Error(
      `${envVar}=${url} is not a loopback address; tests only use servers on 127.0.0.1. Unset ${envVar} to let the tests start their own.`,
    );
  }
}

/** Parses the KEY=VALUE lines printed by `services.sh start`. */
function parse(stdout: string): { values: Map<string, string>; missing: Set<string> } {
  const values = new Map<string, string>();
  const missing = new Set<string>();
  for (const line of stdout.split('\n')) {
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1).trim();
    if (key === 'MISSING') missing.add(value);
    else values.set(key, value);
  }
  return { values, missing };
}

function banner(text: string): void {
  const rule = '='.repeat(Math.min(100, Math.max(60, text.length + 4)));
  console.warn(`\n${rule}\n  ${text}\n${rule}\n`);
}

/** Starts the services; the returned function stops them (Vitest calls it as the teardown). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const needed = services.filter((service) => !process.env[service.envVar]);
  for (const service of services) {
    const preset = process.env[service.envVar];
    if (preset) checkLoopback(service.envVar, preset);
  }
  let stateDir: string | undefined;
  let startFailure: string | undefined;
  let parsed = { values: new Map<string, string>(), missing: new Set<string>() };
  if (needed.length > 0) {
    let stdout = '';
    let stderr = '';
    try {
      ({ stdout, stderr } = await run(script, ['start'], { timeout: 120_000 }));
    } catch (error) {
      const output = (error as { stderr?: string }).stderr ?? '';
      const message = `scripts/services.sh start failed: ${(error as Error).message}\n${output}`;
      if (process.env.CI === 'true') throw new Error(message, { cause: error });
      // Outside CI a broken local install must not block the unit tests: skip with the reason.
      startFailure = `could not start the test services (${output.trim().split('\n').pop() ?? 'see above'})`;
      banner(`Redis and Postgres tests SKIPPED: ${startFailure}`);
      console.warn(message);
    }
    // Retries and other notes from the script (empty when all went well).
    if (stderr.trim()) console.warn(stderr.trim());
    parsed = parse(stdout);
    stateDir = parsed.values.get('STATE_DIR');
  }

  let stopped = false;
  const stopSync = (): void => {
    if (stopped || !stateDir) return;
    stopped = true;
    execFileSync(script, ['stop', stateDir], { stdio: 'inherit' });
  };
  // Backstop for runs that end without the teardown (Ctrl+C): stop servers on process exit.
  process.once('exit', stopSync);
  const teardown = async (): Promise<void> => {
    process.off('exit', stopSync);
    if (stopped || !stateDir) return;
    stopped = true;
    await run(script, ['stop', stateDir], { timeout: 60_000 });
  };

  const summary: string[] = [];
  const failures: string[] = [];
  for (const service of services) {
    const key = service.name === 'Redis' ? 'redis' : 'postgres';
    const url = process.env[service.envVar] ?? parsed.values.get(service.line) ?? null;
    let reason: string | null = null;
    if (!url && startFailure) {
      reason = `${service.name} tests SKIPPED: ${startFailure}`;
    } else if (!url) {
      const installHint = `apt-get install ${service.missing}`;
      reason = `${service.name} tests SKIPPED: ${service.binary} not installed (${installHint})`;
      if (process.env.CI === 'true') {
        failures.push(
          `${service.name} is required under CI=true but ${service.binary} is not installed. Install it with: apt-get update && ${installHint}`,
        );
      } else {
        banner(reason);
      }
    } else {
      process.env[service.envVar] = url;
      summary.push(`${service.name} ${url}`);
    }
    project.provide(`${key}Url`, url);
    project.provide(`${key}SkipReason`, reason);
  }
  if (failures.length > 0) {
    await teardown();
    throw new Error(failures.join('\n'));
  }
  if (summary.length > 0) {
    console.info(`test services: ${summary.join(', ')} (ready in ${Date.now() - started} ms)`);
  }
  return teardown;
}
