/**
 * Recognising an Agency by its shape, for loaders of users' modules: a module reloaded under its
 * own loader namespace, or one that bundles its own copy of Colloquy, builds Agency objects that
 * are not `instanceof` this copy's class but work the same.
 * @module
 */
import type { Agency } from './agency.js';

/** Whether a value looks like an Agency (also an Agency from another copy of Colloquy). */
export function isAgencyLike(value: unknown): value is Agency {
  const candidate = value as Partial<Agency> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.name === 'string' &&
    typeof candidate.getResponse === 'function' &&
    typeof candidate.getResponseStream === 'function' &&
    candidate.agents instanceof Map
  );
}
