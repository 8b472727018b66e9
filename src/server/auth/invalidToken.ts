/**
 * The error of a refused bearer token, on its own so that the auth middleware can recognise it
 * without loading `jose` (which loads only when a server verifies JWTs).
 * @module
 */

/** Thrown for a token that is missing, malformed, expired or not signed by a trusted key. */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}
