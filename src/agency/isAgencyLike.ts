/**
 * Recognising an Agency by its shape, for loaders of users' modules: a module reloaded under its
 * own loader namespace, or one that bundles its own copy of Colloquy, builds Agency objects that
 * are not `instanceof` this copy's class but work the same. {@link isAgencyLike} says whether an
 * export means to be an agency; {@link agencyShapeProblems} says whether it has every member the
 * server and the CLI use, so that a duck-typed fake is refused at load instead of failing later
 * (e.g. `GET /agencies` answering 500).
 * @module
 */
import { ConfigError } from '../errors.js';
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

/** Methods the server and the CLI call on every agency. */
const METHODS = [
  'getResponse',
  'getResponseStream',
  'recipientsOf',
  'checkpoint',
  'rollback',
  'forkChat',
  'close',
] as const;

function read(value: object, key: string): { value?: unknown; error?: string } {
  try {
    return { value: (value as Record<string, unknown>)[key] };
  } catch (error) {
    return { error: `reading "${key}" threw (${(error as Error)?.message ?? String(error)})` };
  }
}

/**
 * What an agency-like value lacks to be served (empty when nothing): the members `GET /agencies`,
 * the graph, the chat routes and `colloquy chat` read.
 */
export function agencyShapeProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return ['it is not an object'];
  const problems: string[] = [];
  const name = read(value, 'name');
  if (typeof name.value !== 'string' || name.value === '')
    problems.push(name.error ?? '"name" is not a non-empty string');
  for (const method of METHODS) {
    const member = read(value, method);
    if (typeof member.value !== 'function')
      problems.push(member.error ?? `"${method}" is not a method`);
  }
  const agents = read(value, 'agents');
  const names =
    agents.value instanceof Map
      ? [...agents.value.values()].map((agent) => (agent as { name?: unknown } | null)?.name)
      : undefined;
  if (names === undefined) problems.push(agents.error ?? '"agents" is not a Map');
  else if (names.some((n) => typeof n !== 'string'))
    problems.push('"agents" holds a value without a string "name"');
  const entryPoints = read(value, 'entryPoints');
  if (!Array.isArray(entryPoints.value) || entryPoints.value.length === 0)
    problems.push(entryPoints.error ?? '"entryPoints" is not a non-empty array of agent names');
  else if (names && entryPoints.value.some((entry) => !names.includes(entry)))
    problems.push('"entryPoints" names an agent that is not in "agents"');
  const flows = read(value, 'flows');
  if (!Array.isArray(flows.value)) problems.push(flows.error ?? '"flows" is not an array');
  const threads = read(value, 'threads');
  if (typeof threads.value !== 'object' || threads.value === null)
    problems.push(threads.error ?? '"threads" is not a ThreadManager');
  return problems;
}

/**
 * Throws a ConfigError when `value` looks like an agency but cannot be served, naming it by
 * `where` (e.g. `agency.ts export "fake"`) and saying what it lacks.
 */
export function assertServableAgency(value: unknown, where: string): void {
  const problems = agencyShapeProblems(value);
  if (problems.length === 0) return;
  throw new ConfigError(
    `${where} looks like an Agency but cannot be served: ${problems.join('; ')}. ` +
      "Export an Agency made with new Agency({ name, entryPoints: [...] }) from 'colloquy', or stop exporting this object.",
  );
}
