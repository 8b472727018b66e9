/**
 * Webhooks of runs: a run started with `webhook: { url, secret }` POSTs its outcome there when it
 * ends (completed, failed or cancelled), signed with `x-colloquy-signature: sha256=<hex>` (the
 * HMAC-SHA256 of the exact body with the secret), retried with exponential backoff (p-retry) a
 * bounded number of times. Every failed attempt is logged with the run id and the attempt; the
 * secret is never logged, echoed in a response or sent.
 * @module
 */
import { createHmac, randomUUID } from 'node:crypto';
import pRetry, { AbortError } from 'p-retry';
import { z } from 'zod';
import { getDefaultLogger } from '../../logger.js';
import type { RunExecutor } from '../executor.js';

/** The `webhook` field of a run's body. */
export const webhookSchema = z
  .object({
    url: z
      .string()
      .refine(
        (url) => /^https?:$/.test(URL.canParse(url) ? new URL(url).protocol : ''),
        'expected an http:// or https:// URL to POST the run outcome to',
      ),
    secret: z
      .string()
      .min(16, 'expected a secret of at least 16 characters (it signs the deliveries)')
      .max(512, 'expected a secret of at most 512 characters'),
  })
  .strict();

/** Where a run's outcome goes, and the secret its deliveries are signed with. */
export type Webhook = z.output<typeof webhookSchema>;

/** The signature header's value for `body`: `sha256=` and the hex HMAC-SHA256 with `secret`. */
export function webhookSignature(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Options of {@link deliverWebhook}. Every field is optional. */
export interface DeliverWebhookOptions {
  /** Attempts in all, the first included (default 5). */
  attempts?: number;
  /** The wait before the first retry, in ms; each next one doubles (default 1000). */
  minDelayMs?: number;
  /** The longest wait between attempts, in ms (default 30000). */
  maxDelayMs?: number;
  /** How long one attempt may take, in ms (default 10000). */
  timeoutMs?: number;
}

/** What a delivery came to. */
export interface WebhookDelivery {
  delivered: boolean;
  attempts: number;
  /** The receiver's last status (0 when it could not be reached). */
  status: number;
}

/** The URL without credentials, query or fragment: what logs may show. */
function shown(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/**
 * POSTs `outcome` (JSON) to the webhook, signed, retrying failures (network errors, timeouts,
 * 408, 429 and 5xx; other 4xx answers are final) with exponential backoff. Never throws: a
 * delivery that fails for good is logged as an error and reported as not delivered.
 */
export async function deliverWebhook(
  webhook: Webhook,
  runId: string,
  outcome: Record<string, unknown>,
  options: DeliverWebhookOptions = {},
): Promise<WebhookDelivery> {
  const attempts = options.attempts ?? 5;
  const body = JSON.stringify(outcome);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'colloquy-webhook',
    'x-colloquy-signature': webhookSignature(body, webhook.secret),
    'x-colloquy-run-id': runId,
    // The same on every attempt: receivers drop repeats by it.
    'x-colloquy-delivery': randomUUID(),
  };
  const logger = getDefaultLogger();
  let attempt = 0;
  let status = 0;
  try {
    await pRetry(
      async () => {
        attempt += 1;
        let response: Response;
        try {
          response = await fetch(webhook.url, {
            method: 'POST',
            headers,
            body,
            redirect: 'manual',
            signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
          });
        } catch (error) {
          status = 0;
          throw new Error(`could not reach it (${(error as Error).message})`);
        }
        status = response.status;
        await response.body?.cancel().catch(() => undefined); // only the status is read
        if (response.ok) return;
        const failure = new Error(`it answered ${response.status}`);
        const final = status < 500 && status !== 408 && status !== 429;
        throw final ? new AbortError(failure) : failure;
      },
      {
        retries: Math.max(0, attempts - 1),
        factor: 2,
        minTimeout: options.minDelayMs ?? 1_000,
        maxTimeout: options.maxDelayMs ?? 30_000,
        onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
          logger.warn(
            { runId, attempt: attemptNumber, url: shown(webhook.url), status },
            `webhook delivery failed: ${error.message}${retriesLeft > 0 ? '; retrying' : ''}`,
          );
        },
      },
    );
    return { delivered: true, attempts: attempt, status };
  } catch (error) {
    logger.error(
      { runId, attempts: attempt, url: shown(webhook.url), status },
      `webhook not delivered after ${attempt} attempt(s): ${(error as Error).message}`,
    );
    return { delivered: false, attempts: attempt, status };
  }
}

/**
 * Delivers the end of a run: its summary (what `GET /runs/:id` answers) with `type:
 * run.<status>` (`run.completed`, `run.failed`, `run.cancelled`; for ensemble runs
 * `run.finished`, `run.failed`, `run.interrupted`).
 */
export function notifyRunEnded(
  webhook: Webhook,
  summary: { runId: string; status: string } & object,
  options?: DeliverWebhookOptions,
): Promise<WebhookDelivery> {
  return deliverWebhook(
    webhook,
    summary.runId,
    { type: `run.${summary.status}`, ...summary },
    options,
  );
}

/**
 * Follows an ensemble run to its end, then delivers its summary (see {@link notifyRunEnded}).
 * Never throws: a run that cannot be followed is logged.
 */
export async function notifyEnsembleRunEnded(
  runs: Pick<RunExecutor, 'follow' | 'state'>,
  runId: string,
  webhook: Webhook,
  options?: DeliverWebhookOptions,
): Promise<WebhookDelivery | undefined> {
  try {
    for await (const _event of runs.follow(runId)) {
      // Only the end matters here.
    }
    const summary = await runs.state(runId);
    if (summary) return await notifyRunEnded(webhook, summary, options);
  } catch (error) {
    getDefaultLogger().error({ runId, err: error }, 'webhook: could not follow the run to its end');
  }
  return undefined;
}
