/**
 * What the OpenAI-compatible routes share: turning chat-completion content parts and Responses
 * input items into SDK input items (text, images, files), refusing what Colloquy does not
 * support with a 400 naming the field, and `response_format` / `text.format` as the entry
 * point's structured output.
 * @module
 */
import type { AgentInputItem, JsonSchemaDefinition } from '@openai/agents-core';
import type { AgencyResponse } from '../agency/result.js';
import type { Usage } from '../usage.js';
import { HttpError } from './errors.js';

export { CHAT_ID_HEADER } from './chatIdHeader.js';

type UserContent = Exclude<Extract<AgentInputItem, { role: 'user' }>['content'], string>;
type UserPart = UserContent[number];

/** A loosely typed content part of a client request. */
export type WirePart = { type: string; [key: string]: unknown };

function badPart(path: string, detail: string): HttpError {
  return new HttpError(400, 'INVALID_BODY', `Unsupported content part at ${path}: ${detail}`, path);
}

/**
 * One content part of a client message as an SDK part: text, an image (URL, data URL or file
 * id) or a file (base64 data, data URL, file id or URL). Chat Completions and Responses shapes
 * are both accepted.
 */
export function toUserPart(part: WirePart, path: string): UserPart {
  switch (part.type) {
    case 'text':
    case 'input_text':
      if (typeof part.text !== 'string') throw badPart(path, 'expected "text" to be a string.');
      return { type: 'input_text', text: part.text };
    case 'image_url': {
      const url = (part.image_url as { url?: unknown } | undefined)?.url;
      if (typeof url !== 'string') throw badPart(path, 'expected "image_url.url".');
      return { type: 'input_image', image: url };
    }
    case 'input_image':
      if (typeof part.image_url === 'string') return { type: 'input_image', image: part.image_url };
      if (typeof part.file_id === 'string')
        return { type: 'input_image', image: { id: part.file_id } };
      throw badPart(path, 'expected "image_url" or "file_id".');
    case 'file':
      return filePart((part.file ?? {}) as Record<string, unknown>, path);
    case 'input_file':
      return filePart(part, path);
    default:
      throw badPart(
        path,
        `type "${part.type}" is not supported. Send text, image_url/input_image or file/input_file parts.`,
      );
  }
}

function filePart(file: Record<string, unknown>, path: string): UserPart {
  const filename = typeof file.filename === 'string' ? { filename: file.filename } : {};
  if (typeof file.file_id === 'string')
    return { type: 'input_file', file: { id: file.file_id }, ...filename };
  if (typeof file.file_url === 'string')
    return { type: 'input_file', file: { url: file.file_url }, ...filename };
  if (typeof file.file_data === 'string') {
    const data = file.file_data.startsWith('data:')
      ? file.file_data
      : `data:${mediaTypeOfName(file.filename)};base64,${file.file_data}`;
    return { type: 'input_file', file: data, ...filename };
  }
  throw badPart(path, 'expected "file_data" (base64 or a data URL), "file_id" or "file_url".');
}

function mediaTypeOfName(name: unknown): string {
  return typeof name === 'string' && name.toLowerCase().endsWith('.pdf')
    ? 'application/pdf'
    : 'application/octet-stream';
}

/** A user message's content as SDK content: text stays text, parts become SDK parts. */
export function toUserContent(content: string | WirePart[], path: string): string | UserContent {
  if (typeof content === 'string') return content;
  return content.map((part, i) => toUserPart(part, `${path}.${i}`));
}

/** The plain text of client content (parts other than text are left out). */
export function plainText(content: string | WirePart[] | null | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
}

/** Refuses request fields Colloquy cannot honour, naming the field. */
export function rejectUnsupported(body: { tools?: unknown; n?: unknown }): void {
  if (Array.isArray(body.tools) && body.tools.length > 0) {
    throw new HttpError(
      400,
      'UNSUPPORTED_FIELD',
      '"tools" is not supported: the agency runs its own agents\' tools and never returns tool calls to the client. Remove "tools" from the request.',
      'tools',
    );
  }
  if (typeof body.n === 'number' && body.n > 1) {
    throw new HttpError(
      400,
      'UNSUPPORTED_FIELD',
      `"n" must be 1 (got ${body.n}): an agency gives one answer per request. Send separate requests for more.`,
      'n',
    );
  }
}

/** A client's JSON schema format (`response_format.json_schema` or `text.format`). */
export interface WireSchemaFormat {
  name?: string | undefined;
  schema?: Record<string, unknown> | undefined;
  strict?: boolean | null | undefined;
}

/** The entry point's structured output for a JSON schema format. */
export function toOutputType(format: WireSchemaFormat, path: string): JsonSchemaDefinition {
  if (!format.schema || typeof format.schema !== 'object') {
    throw new HttpError(
      400,
      'INVALID_BODY',
      `${path}.schema must be a JSON schema object.`,
      `${path}.schema`,
    );
  }
  return {
    type: 'json_schema',
    name: format.name ?? 'response',
    strict: format.strict ?? false,
    schema: format.schema as JsonSchemaDefinition['schema'],
  };
}

/** The final output as the text of an assistant message (objects as JSON). */
export function outputText(result: AgencyResponse): string {
  return typeof result.finalOutput === 'string'
    ? result.finalOutput
    : JSON.stringify(result.finalOutput);
}

/** Usage in the Responses API's shape. */
export function responsesUsage(usage: Usage) {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.totalTokens,
  };
}
