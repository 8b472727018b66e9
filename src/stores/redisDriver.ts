/**
 * The `redis` driver, an optional peer dependency: imported when a Redis module is first loaded,
 * or a `ConfigError` naming `npm install redis` (see optionalPeer.ts).
 * @module
 */
import { importOptionalPeer } from '../optionalPeer.js';

/** `redis`'s `createClient`. */
export const { createClient } = await importOptionalPeer('redis', () => import('redis'));
