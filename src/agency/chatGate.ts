/**
 * One call per chat at a time. Two `getResponse` calls on one chat would otherwise both read the
 * same history and interleave their items in the user thread. Calls of one chat wait for each
 * other in call order (in this process), and, when the store offers leases, hold the chat's lease
 * so that calls in other processes on the same store wait too. A call that cannot get the chat
 * within the agency's `chatWaitMs` fails with {@link ChatBusyError}.
 * @module
 */
import { ColloquyError } from '../errors.js';
import { defaultRuntime, defineRuntimeSlot, type ColloquyRuntime } from '../runtime.js';

/** Another call holds the chat and did not finish within the wait. */
export class ChatBusyError extends ColloquyError {
  readonly chatId: string;

  constructor(chatId: string, waitedMs: number, where: 'in this process' | 'in another process') {
    super(
      'CHAT_BUSY',
      `Chat "${chatId}" is busy with another call ${where} (waited ${waitedMs} ms). ` +
        'Wait for that call to finish and send again, or raise Agency({ chatWaitMs }).',
    );
    this.chatId = chatId;
  }
}

/** Admits one call per chat at a time, in arrival order. */
export class ChatGate {
  readonly #tails = new Map<string, Promise<void>>();

  /**
   * Waits (up to `waitMs`, or while `signal` allows) until every earlier call of `chatId` has
   * left; resolves with the function that lets the next one in.
   */
  /** Lets the call in at once when no other call of `chatId` runs or waits; else undefined. */
  tryEnter(chatId: string): (() => void) | undefined {
    if (this.#tails.has(chatId)) return undefined;
    let leave!: () => void;
    const tail = new Promise<void>((resolve) => (leave = resolve));
    this.#tails.set(chatId, tail);
    void tail.then(() => {
      if (this.#tails.get(chatId) === tail) this.#tails.delete(chatId);
    });
    return leave;
  }

  async enter(chatId: string, waitMs: number, signal?: AbortSignal): Promise<() => void> {
    const previous = this.#tails.get(chatId);
    let leave!: () => void;
    const mine = new Promise<void>((resolve) => (leave = resolve));
    const tail = previous ? previous.then(() => mine) : mine;
    this.#tails.set(chatId, tail);
    void tail.then(() => {
      if (this.#tails.get(chatId) === tail) this.#tails.delete(chatId);
    });
    if (!previous) return leave;
    try {
      await waitFor(
        previous,
        waitMs,
        signal,
        () => new ChatBusyError(chatId, waitMs, 'in this process'),
      );
    } catch (error) {
      leave();
      throw error;
    }
    return leave;
  }

  /** Whether a call of `chatId` is running or waiting now. */
  busy(chatId: string): boolean {
    return this.#tails.has(chatId);
  }
}

function waitFor(
  work: Promise<void>,
  waitMs: number,
  signal: AbortSignal | undefined,
  busy: () => Error,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = Number.isFinite(waitMs) ? setTimeout(() => finish(busy()), waitMs) : undefined;
    const onAbort = (): void => finish(signal!.reason ?? new Error('aborted'));
    const finish = (error?: unknown): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined) resolve();
      else reject(error);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    void work.then(() => finish());
  });
}

/** The chat gates of a runtime, weakly keyed by the store. */
const GATES = defineRuntimeSlot('agency.chatGates', () => new WeakMap<object, ChatGate>());

/**
 * The gate of a store: every agency of `runtime` (default: the default runtime) over the same
 * store object shares it, so two agencies on one store never interleave a chat either. Agencies
 * of another runtime have their own gates (and meet through the store's leases, if it has any).
 */
export function gateOf(store: object, runtime: ColloquyRuntime = defaultRuntime()): ChatGate {
  const gates = runtime.use(GATES);
  let gate = gates.get(store);
  if (!gate) gates.set(store, (gate = new ChatGate()));
  return gate;
}
