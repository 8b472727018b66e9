/**
 * `openApiTools`: an OpenAPI 3 document (object, file path or URL) becomes one function tool per
 * operation, as agency-swarm's `schemas_folder` does. The document is validated and its `$ref`s
 * resolved by `@readme/openapi-parser`; each tool's parameters are the operation's path, query
 * and header parameters plus `body` (the JSON request body), and calling it makes the HTTP
 * request and returns the response text.
 *
 * Safety rules (docs/reliability.md): every request has a deadline ({@link
 * OpenApiToolsOptions.timeoutMs}); a `$ref` cycle is refused at load with its path; path
 * parameters cannot leave their segment (see `openApiPath.ts`); redirects are followed (at most
 * 5), and with `allowedHosts` every URL and redirect must stay on the listed hosts.
 * @module
 */
import { dereference, validate, compileErrors } from '@readme/openapi-parser';
import { tool, type FunctionTool } from '@openai/agents-core';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../errors.js';
import {
  assertHostAllowed,
  DEFAULT_OPENAPI_TIMEOUT_MS,
  guardedFetch,
  type GuardOptions,
} from './openApiFetch.js';
import { fillPath } from './openApiPath.js';
import { assertRefHostsAllowed } from './openApiRefs.js';

/** Options of {@link openApiTools}. */
export interface OpenApiToolsOptions {
  /** The API's base URL (default: the document's first `servers` entry, resolved against its URL). */
  baseUrl?: string;
  /** Headers sent with every request (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** Longest response text returned to the model, in characters (default 20,000). */
  maxResponseChars?: number;
  /** The fetch to call the API with (default: the global fetch). */
  fetch?: typeof fetch;
  /**
   * Deadline of the spec download and of each tool call, in ms, body included (default
   * 30,000). A server that accepts the connection but never answers fails with the URL named.
   */
  timeoutMs?: number;
  /**
   * Hosts the spec URL, the API's base URL, tool calls and every redirect may reach
   * (`api.example.com`, `api.example.com:8443` or `*.example.com`; default: any host, and
   * redirects to other hosts are followed).
   */
  allowedHosts?: readonly string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Record<string, unknown>;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: {
    required?: boolean;
    content?: Record<string, { schema?: Record<string, unknown> }>;
  };
}

type Document = {
  openapi?: string;
  servers?: Array<{ url: string }>;
  paths?: Record<string, Record<string, unknown> & { parameters?: Parameter[] }>;
};

/**
 * The tools of an OpenAPI 3 document: one per operation, named by `operationId` (else
 * `method_path`).
 *
 * @example
 * ```ts
 * const weather = new Agent({
 *   name: 'Weather',
 *   instructions: 'Answer with the forecast API.',
 *   tools: await openApiTools('./schemas/weather.yaml', { headers: { 'x-api-key': key } }),
 * });
 * ```
 */
export async function openApiTools(
  spec: string | Record<string, unknown>,
  options: OpenApiToolsOptions = {},
): Promise<FunctionTool<any, any, any>[]> {
  const source = typeof spec === 'string' ? spec : 'the OpenAPI document';
  const input = isUrl(spec) ? await download(spec, guardOf(options, 'fetching the spec')) : spec;
  assertRefHostsAllowed(input, isUrl(spec) ? spec : undefined, options.allowedHosts);
  const parserOptions = parserHttpOptions(options);
  const checked = await validate(structuredClone(input) as never, parserOptions);
  if (!checked.valid) {
    throw new ConfigError(
      `openApiTools: ${source} is not a valid OpenAPI document: ${compileErrors(checked)} Fix the document.`,
    );
  }
  const document = await dereferenceAcyclic(input, source, parserOptions);
  if (!document.openapi?.startsWith('3.')) {
    throw new ConfigError(
      `openApiTools: ${source} is OpenAPI/Swagger ${document.openapi ?? '2'}; only OpenAPI 3 documents are supported. Convert it to OpenAPI 3.`,
    );
  }
  const baseUrl = options.baseUrl ?? serverUrl(document, spec);
  assertHostAllowed(new URL(baseUrl), options.allowedHosts, 'openApiTools: the base URL');
  const tools: FunctionTool<any, any, any>[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].filter(
        (p) => p.in !== 'cookie',
      );
      tools.push(operationTool(method, path, operation, parameters, baseUrl, options));
    }
  }
  return tools;
}

function isUrl(spec: unknown): spec is string {
  return typeof spec === 'string' && /^https?:\/\//.test(spec);
}

function guardOf(options: OpenApiToolsOptions, what: string): GuardOptions {
  const timeoutMs = options.timeoutMs ?? DEFAULT_OPENAPI_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new ConfigError(
      `openApiTools: timeoutMs must be a positive number of ms (got ${timeoutMs}). Pass e.g. 30000.`,
    );
  }
  return {
    fetch: options.fetch ?? fetch,
    timeoutMs,
    allowedHosts: options.allowedHosts,
    what: `openApiTools: ${what}`,
  };
}

/** Fetches a document by URL (JSON or YAML) with our fetch, so tests and proxies apply. */
async function download(url: string, guard: GuardOptions): Promise<Record<string, unknown>> {
  const response = await guardedFetch(new URL(url), { method: 'GET', headers: {} }, guard);
  if (!response.ok) {
    throw new ConfigError(
      `openApiTools: fetching ${url} gave HTTP ${response.status}. Check the URL, or pass the document itself.`,
    );
  }
  return parseYaml(response.text) as Record<string, unknown>;
}

type ParserOptions = NonNullable<Parameters<typeof validate>[1]>;

/**
 * How the parser fetches external `$ref`s: with the same deadline, and without redirects when
 * hosts are restricted (a redirect could leave the allow-list; the `$ref`s were checked).
 */
function parserHttpOptions(options: OpenApiToolsOptions): ParserOptions {
  return {
    resolve: {
      http: {
        timeout: options.timeoutMs ?? DEFAULT_OPENAPI_TIMEOUT_MS,
        redirects: options.allowedHosts ? 0 : 5,
      },
    },
  };
}

/**
 * The document with its `$ref`s resolved; a `$ref` cycle (which would make a tool schema that
 * cannot be serialised) is refused with the path of the `$ref`.
 */
async function dereferenceAcyclic(
  input: unknown,
  source: string,
  parserOptions: ParserOptions,
): Promise<Document> {
  const cycles: string[] = [];
  const document = (await dereference(structuredClone(input) as never, {
    ...parserOptions,
    dereference: { circular: 'ignore', onCircular: (ref) => cycles.push(ref) },
  })) as Document;
  if (cycles.length > 0) {
    const refs = [...new Set(cycles.map((ref) => ref.slice(Math.max(0, ref.indexOf('#')))))];
    throw new ConfigError(
      `openApiTools: ${source} has a $ref cycle at ${refs.slice(0, 5).join(', ')}: a tool's parameters must be a finite JSON schema. ` +
        'Replace the recursive $ref (e.g. by `type: object` at that depth) and load it again.',
    );
  }
  return document;
}

function serverUrl(document: Document, spec: string | Record<string, unknown>): string {
  const server = document.servers?.[0]?.url;
  const fromUrl = typeof spec === 'string' && /^https?:\/\//.test(spec) ? spec : undefined;
  if (server && /^https?:\/\//.test(server)) return server;
  if (server && fromUrl) return new URL(server, fromUrl).href;
  throw new ConfigError(
    'openApiTools: the document has no absolute server URL. Add `servers: [{ url: "https://…" }]` or pass { baseUrl }.',
  );
}

function toolName(method: string, path: string, operation: Operation): string {
  const raw = operation.operationId ?? `${method}_${path}`;
  return raw
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
}

function operationTool(
  method: string,
  path: string,
  operation: Operation,
  parameters: Parameter[],
  baseUrl: string,
  options: OpenApiToolsOptions,
): FunctionTool<any, any, any> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const parameter of parameters) {
    properties[parameter.name] = {
      ...(parameter.schema ?? { type: 'string' }),
      ...(parameter.description ? { description: parameter.description } : {}),
    };
    if (parameter.required || parameter.in === 'path') required.push(parameter.name);
  }
  const body = operation.requestBody?.content?.['application/json']?.schema;
  if (body) {
    properties.body = body;
    if (operation.requestBody?.required) required.push('body');
  }
  const description =
    [operation.summary, operation.description].filter(Boolean).join('\n\n') ||
    `${method.toUpperCase()} ${path}`;
  return tool({
    name: toolName(method, path, operation),
    description,
    strict: false,
    parameters: { type: 'object', properties, required, additionalProperties: false } as never,
    execute: async (input: unknown) => {
      const args = (typeof input === 'string' ? JSON.parse(input) : (input ?? {})) as Record<
        string,
        unknown
      >;
      try {
        return await callOperation(method, path, parameters, args, baseUrl, options);
      } catch (error) {
        // The model is told why (a refused path parameter or host, a deadline, a network
        // failure), where the SDK's default tool error would say only "an error occurred".
        return `Error: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
  });
}

async function callOperation(
  method: string,
  path: string,
  parameters: Parameter[],
  args: Record<string, unknown>,
  baseUrl: string,
  options: OpenApiToolsOptions,
): Promise<string> {
  const pathValues = new Map<string, string>();
  const query = new URLSearchParams();
  const headers: Record<string, string> = { ...options.headers };
  for (const parameter of parameters) {
    const value = args[parameter.name];
    if (value === undefined || value === null) continue;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (parameter.in === 'path') pathValues.set(parameter.name, text);
    else if (parameter.in === 'query') query.set(parameter.name, text);
    else if (parameter.in === 'header') headers[parameter.name] = text;
  }
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}${fillPath(path, pathValues)}`);
  for (const [key, value] of query) url.searchParams.set(key, value);
  const hasBody = args.body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';
  const response = await guardedFetch(
    url,
    {
      method: method.toUpperCase(),
      headers,
      ...(hasBody ? { body: JSON.stringify(args.body) } : {}),
    },
    guardOf(options, `${method.toUpperCase()} ${path}`),
  );
  const text = response.text;
  const max = options.maxResponseChars ?? 20_000;
  const clipped =
    text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters]` : text;
  return response.ok
    ? clipped
    : `Error: HTTP ${response.status} from ${method.toUpperCase()} ${url.pathname}: ${clipped}`;
}
