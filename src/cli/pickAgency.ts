/**
 * Which agency of a loaded module a command works with (`chat`, `threads replay`): shared, so
 * that no command imports another.
 * @module
 */
import type { Agency } from '../agency/agency.js';
import { ConfigError } from '../errors.js';

/** Picks the agency to work with: the only one, or fails naming them. */
export function pickAgency(agencies: Record<string, Agency>, specifier: string): Agency {
  const names = Object.keys(agencies);
  if (names.length === 1) return agencies[names[0]!]!;
  throw new ConfigError(
    `${specifier} exports ${names.length} agencies (${names.join(', ')}). Pick one: colloquy chat ${specifier}#EXPORT.`,
  );
}
