/**
 * Who a request is from: the user an authenticator found, carried through the request (and the
 * calls it starts) in an `AsyncLocalStorage`, so that ownership checks need no parameter threading.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** An authenticated user. */
export interface Principal {
  /** The user id (a JWT's `sub`). Chats, runs and traces are owned by it. */
  userId: string;
  /** Admins see and act on every user's records. */
  admin: boolean;
}

/**
 * Finds the user of a request: a {@link Principal}, or `null` for a 401. Throwing also answers
 * 401, with the error's message. An application passes its own to `createApp({ authenticate })`.
 */
export type Authenticate = (request: Request) => Promise<Principal | null> | Principal | null;

const storage = new AsyncLocalStorage<Principal>();

/** Runs `fn` with `principal` as the current user. */
export function withPrincipal<T>(principal: Principal, fn: () => T): T {
  return storage.run(principal, fn);
}

/** The user of the current request, or `undefined` outside an authenticated request. */
export function currentPrincipal(): Principal | undefined {
  return storage.getStore();
}
