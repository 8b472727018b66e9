/**
 * The memory user of a call under sign-in (the token's `sub`), checked where calls start: in the
 * ownership middleware (before a streamed answer starts) and in the scoped executor.
 * @module
 */
import { currentPrincipal } from '../auth/principal.js';
import { notFound } from '../errors.js';

/**
 * A call's memory user (`userId`) under sign-in: the signed-in user's id (the token's `sub`). A
 * `userId` naming another user is refused as another user's memory routes are (404); admins
 * may name any user.
 */
export function callUser<O extends { userId?: string | undefined }>(options: O): O {
  const principal = currentPrincipal();
  if (!principal) return options;
  const named = options.userId;
  if (named !== undefined && named !== principal.userId && !principal.admin) {
    throw notFound(
      'ROUTE_NOT_FOUND',
      `Memory of user "${named}"`,
      [],
      "A signed-in user's calls use their own memory: leave userId out (it is the token's sub), or name your own.",
    );
  }
  return { ...options, userId: named ?? principal.userId };
}
