/**
 * The contract of a bundled primitive: what a script would get (its stdin object and environment)
 * and what it would print (one JSON object). Primitives run in-process.
 * @module
 */

/** What a primitive is given. */
export interface PrimitiveRequest {
  /** The object the script would read on stdin. */
  stdin: Record<string, unknown>;
  /** The variables the script would see (`AGENT_PARAMETERS`, `INPUT_DATA`, ...). */
  env: Record<string, string | undefined>;
  /** The working directory relative paths resolve from. */
  cwd: string;
  /** Asks the user; without it, interactive primitives get an empty answer (as at end of input). */
  ask?: (prompt: string) => Promise<string>;
}

/** A primitive: one request to the JSON object it prints. */
export type Primitive = (request: PrimitiveRequest) => Promise<Record<string, unknown>>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/**
 * The parameters of a primitive, as llm-orc's primitives read them: `AGENT_PARAMETERS` when it is
 * set and not `{}`, else stdin's `parameters`, else stdin itself.
 */
export function primitiveParameters(request: PrimitiveRequest): Record<string, unknown> {
  const fromEnv = request.env.AGENT_PARAMETERS;
  if (fromEnv && fromEnv.trim() !== '{}') {
    try {
      const parsed = JSON.parse(fromEnv) as unknown;
      if (isRecord(parsed)) return parsed;
    } catch {
      // Not JSON: fall back to stdin.
    }
  }
  const parameters = request.stdin.parameters;
  return isRecord(parameters) ? parameters : request.stdin;
}

/** A parameter as a string, or the default when it is missing. */
export function stringParameter(
  parameters: Record<string, unknown>,
  key: string,
  fallback: string,
): string {
  const value = parameters[key];
  return value === undefined || value === null ? fallback : String(value);
}
