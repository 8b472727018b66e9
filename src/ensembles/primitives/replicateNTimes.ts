/**
 * `replicate_n_times`: describes `parameters.replications` (default 1) runs, each with an id and a
 * seed (`seed + i` when `parameters.seed` is given, else random). Prints
 * `{ success, replications: [{ replication_id, total_replications, random_seed }], total_replications, base_seed, error }`.
 * @module
 */
import { randomInt } from 'node:crypto';
import type { Primitive } from './types.js';
import { primitiveParameters } from './types.js';

/** The `replicate_n_times` primitive. */
export const replicateNTimes: Primitive = async (request) => {
  const parameters = primitiveParameters(request);
  const count = parameters.replications === undefined ? 1 : Number(parameters.replications);
  const seed =
    parameters.seed === undefined || parameters.seed === null ? null : Number(parameters.seed);
  if (!Number.isInteger(count) || count < 1)
    return {
      success: false,
      replications: [],
      total_replications: 0,
      base_seed: seed,
      error: `replications must be an integer >= 1 (got ${JSON.stringify(parameters.replications)})`,
    };
  const replications = Array.from({ length: count }, (_, i) => ({
    replication_id: i + 1,
    total_replications: count,
    random_seed: seed === null ? randomInt(1, 1_000_001) : seed + i,
  }));
  return { success: true, replications, total_replications: count, base_seed: seed, error: null };
};
