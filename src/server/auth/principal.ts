/**
 * Who a request is from: the user an authenticator found, carried through the request (and the
 * calls it starts) in a slot of Colloquy's async context (`src/asyncContext.ts`), so that
 * ownership checks need no parameter threading.
 * @module
 */
import { contextSlot, readSlot, runInSlot } from '../../asyncContext.js';

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

const storage = contextSlot<Principal>('signed-in user');

/** Runs `fn` with `principal` as the current user. */
export function withPrincipal<T>(principal: Principal, fn: () => T): T {
  return runInSlot(storage, principal, fn);
}

/** The user of the current request, or `undefined` outside an authenticated request. */
export function currentPrincipal(): Principal | undefined {
  return readSlot(storage);
}
