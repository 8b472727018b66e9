/**
 * Checking a structured answer against the JSON schema a client asked for (`response_format`,
 * `text.format`): the subset of JSON Schema that structured outputs use (`type`, `properties`,
 * `required`, `additionalProperties`, `items`, `enum`, `const`, `anyOf`/`oneOf`, local `$ref`).
 * What does not match becomes a 400 `OUTPUT_SCHEMA_MISMATCH` naming each place, never a 500 (a
 * 400, not a 422: LangChain's ChatOpenAI retries 422s; no client retries a 400).
 * @module
 */
import { ModelBehaviorError } from '@openai/agents-core';
import { HttpError } from './errors.js';

type Schema = Record<string, unknown>;

/** The requested structured output: its name and JSON schema. */
export interface OutputFormat {
  name: string;
  schema: Record<string, unknown>;
}

const MAX_REPORTED = 5;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

function resolveRef(root: Schema, ref: string): Schema | undefined {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  return (root[match[1]!] as Record<string, Schema> | undefined)?.[match[2]!];
}

function check(value: unknown, schema: Schema, root: Schema, at: string, out: string[]): void {
  if (out.length >= MAX_REPORTED) return;
  if (typeof schema.$ref === 'string') {
    const target = resolveRef(root, schema.$ref);
    if (target) check(value, target, root, at, out);
    return;
  }
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(options)) {
    const fits = options.some((option) => {
      const found: string[] = [];
      check(value, option, root, at, found);
      return found.length === 0;
    });
    if (!fits) out.push(`${at}: matches none of the ${options.length} allowed shapes`);
    return;
  }
  const types = schema.type === undefined ? [] : ([] as unknown[]).concat(schema.type);
  if (types.length > 0 && !types.some((type) => matchesType(value, String(type)))) {
    out.push(`${at}: expected ${types.join(' or ')}, got ${typeOf(value)}`);
    return;
  }
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) {
    out.push(`${at}: expected ${JSON.stringify(schema.const)}`);
  }
  if (
    Array.isArray(schema.enum) &&
    !schema.enum.some((v) => JSON.stringify(v) === JSON.stringify(value))
  ) {
    out.push(`${at}: expected one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  }
  if (typeOf(value) === 'object')
    checkObject(value as Record<string, unknown>, schema, root, at, out);
  if (Array.isArray(value) && schema.items && typeof schema.items === 'object') {
    value.forEach((item, i) => check(item, schema.items as Schema, root, `${at}[${i}]`, out));
  }
}

function checkObject(
  value: Record<string, unknown>,
  schema: Schema,
  root: Schema,
  at: string,
  out: string[],
): void {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const key of (schema.required ?? []) as string[]) {
    if (!(key in value)) out.push(`${at}.${key}: required, missing`);
  }
  for (const [key, item] of Object.entries(value)) {
    const property = properties[key];
    if (property) check(item, property, root, `${at}.${key}`, out);
    else if (schema.additionalProperties === false) out.push(`${at}.${key}: not allowed`);
  }
}

/** Where `value` does not match `schema` (at most five places; empty when it matches). */
export function schemaMismatches(value: unknown, schema: Schema): string[] {
  const out: string[] = [];
  check(value, schema, schema, '$', out);
  return out;
}

function mismatch(name: string, detail: string): HttpError {
  return new HttpError(
    400,
    'OUTPUT_SCHEMA_MISMATCH',
    `The agency's answer does not match the JSON schema "${name}" of the request: ${detail}. ` +
      'The run was not retried. Loosen the schema, or tell the entry point to follow it (instructions or a system message), then send the request again.',
  );
}

/** Throws a 400 `OUTPUT_SCHEMA_MISMATCH` when the final output does not match the requested schema. */
export function checkOutput(output: unknown, format: OutputFormat): void {
  const found = schemaMismatches(output, format.schema);
  if (found.length > 0) throw mismatch(format.name, found.join('; '));
}

/**
 * The error of a structured-output call as the client should get it: an answer the SDK could not
 * parse as JSON becomes a 400 `OUTPUT_SCHEMA_MISMATCH`; anything else is returned as is.
 */
export function outputError(error: unknown, format: { name: string } | undefined): unknown {
  if (!format) return error;
  const message = error instanceof Error ? error.message : '';
  if (error instanceof ModelBehaviorError || message.startsWith('Invalid output type')) {
    return mismatch(format.name, 'it is not valid JSON');
  }
  return error;
}
