/**
 * A fake of the OpenAI Conversations API on a loopback port, for the ConversationsStore tests
 * and the CLI demo. It follows the published reference: conversations (create, retrieve, update,
 * delete), items (add up to 20 per request, list with `after`/`order`/`limit` (1–100, default 20,
 * newest first), retrieve, delete), metadata limits (16 keys, 64-char keys, 512-char values),
 * 404 for deleted or unknown conversations, and 429 with `retry-after` on demand. Items are
 * normalised as the service does: an `id` and a `status` are added, string message content
 * becomes `input_text` (`output_text` for the assistant) parts. Every request is logged.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One logged request. */
export interface FakeRequest {
  method: string;
  path: string;
  status: number;
  /** Items in the body of an add-items or create request. */
  items?: number;
  auth?: string;
}

type Item = Record<string, unknown> & { id: string; type: string };

interface Conversation {
  id: string;
  created_at: number;
  metadata: Record<string, string>;
  items: Item[];
}

const ROLES = ['user', 'assistant', 'system', 'developer'];
class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

const hex = (n: number): string => randomBytes(n).toString('hex');

function checkMetadata(metadata: unknown): Record<string, string> {
  if (metadata === undefined || metadata === null) return {};
  if (typeof metadata !== 'object' || Array.isArray(metadata))
    throw new ApiError(400, "Invalid type for 'metadata': expected an object.", 'metadata');
  const entries = Object.entries(metadata as Record<string, unknown>);
  if (entries.length > 16)
    throw new ApiError(
      400,
      `Invalid 'metadata': too many properties. Expected an object with at most 16 properties, but got an object with ${entries.length} properties instead.`,
      'metadata',
    );
  for (const [key, value] of entries) {
    if (key.length > 64)
      throw new ApiError(
        400,
        `Invalid 'metadata': key '${key.slice(0, 20)}…' is longer than 64 characters.`,
        'metadata',
      );
    if (typeof value !== 'string')
      throw new ApiError(
        400,
        `Invalid type for 'metadata.${key}': expected a string.`,
        `metadata.${key}`,
      );
    if (value.length > 512)
      throw new ApiError(
        400,
        `Invalid 'metadata.${key}': string too long. Expected a string with maximum length 512.`,
        `metadata.${key}`,
      );
  }
  return metadata as Record<string, string>;
}

function normalise(raw: unknown, index: number): Item {
  const item = raw as Record<string, unknown>;
  const type = (item?.type ?? (item?.role ? 'message' : undefined)) as string | undefined;
  const where = `items[${index}]`;
  if (type === 'message') {
    if (!ROLES.includes(item.role as string))
      throw new ApiError(
        400,
        `Invalid value: '${String(item.role)}'. Supported values are: 'user', 'assistant', 'system', and 'developer'.`,
        `${where}.role`,
      );
    const assistant = item.role === 'assistant';
    const content =
      typeof item.content === 'string'
        ? [
            assistant
              ? { type: 'output_text', text: item.content, annotations: [] }
              : { type: 'input_text', text: item.content },
          ]
        : item.content;
    if (!Array.isArray(content))
      throw new ApiError(
        400,
        `Missing required parameter: '${where}.content'.`,
        `${where}.content`,
      );
    for (const [n, part] of (content as Record<string, unknown>[]).entries()) {
      const allowed = assistant
        ? ['output_text', 'refusal']
        : ['input_text', 'input_image', 'input_file'];
      if (!allowed.includes(part?.type as string))
        throw new ApiError(
          400,
          `Invalid value: '${String(part?.type)}'. Supported values are: ${allowed.map((a) => `'${a}'`).join(', ')}.`,
          `${where}.content[${n}].type`,
        );
    }
    return { id: `msg_${hex(24)}`, type: 'message', status: 'completed', content, role: item.role };
  }
  if (type === 'function_call') {
    for (const field of ['call_id', 'name', 'arguments'])
      if (typeof item[field] !== 'string')
        throw new ApiError(
          400,
          `Missing required parameter: '${where}.${field}'.`,
          `${where}.${field}`,
        );
    return {
      id: `fc_${hex(24)}`,
      type,
      status: 'completed',
      arguments: item.arguments,
      call_id: item.call_id,
      name: item.name,
    };
  }
  if (type === 'function_call_output') {
    if (typeof item.call_id !== 'string')
      throw new ApiError(
        400,
        `Missing required parameter: '${where}.call_id'.`,
        `${where}.call_id`,
      );
    return {
      id: `fco_${hex(24)}`,
      type,
      status: 'completed',
      call_id: item.call_id,
      output: item.output,
    };
  }
  throw new ApiError(
    400,
    `Invalid value: '${String(type)}'. Supported values are: 'message', 'function_call', 'function_call_output', ….`,
    `${where}.type`,
  );
}

/** The fake service: start it, point a store at `baseURL`, read `requests`. */
export class ConversationsFake {
  readonly requests: FakeRequest[] = [];
  readonly conversations = new Map<string, Conversation>();
  #server: Server | undefined;
  #throttle: { count: number; retryAfter: string; skip: number; status: number } | undefined;
  baseURL = '';

  /** Starts listening on a free loopback port. */
  async start(): Promise<this> {
    this.#server = createServer((req, res) => void this.#handle(req, res));
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.baseURL = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.#server ? this.#server.close(() => resolve()) : resolve(),
    );
  }

  /** After `skip` more requests, the next `count` are answered 429 with this `retry-after` (seconds). */
  throttle(count: number, retryAfterSeconds: number, skip = 0): void {
    this.#throttle = { count, retryAfter: String(retryAfterSeconds), skip, status: 429 };
  }

  /** After `skip` more requests, the next `count` fail with `status` (a 5xx) and do nothing. */
  failNext(count: number, status: number, skip = 0): void {
    this.#throttle = { count, retryAfter: '0', skip, status };
  }

  /** Requests since the last call (the log is cleared). */
  take(): FakeRequest[] {
    return this.requests.splice(0);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const entry: FakeRequest = { method: req.method ?? 'GET', path: url.pathname, status: 200 };
    const auth =
      req.headers.authorization ??
      (req.headers['api-key'] ? `api-key ${String(req.headers['api-key'])}` : undefined);
    if (auth) entry.auth = auth;
    this.requests.push(entry);
    let body: Record<string, unknown> = {};
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}): void => {
      entry.status = status;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(payload));
    };
    try {
      if (this.#throttle && this.#throttle.skip > 0) this.#throttle.skip -= 1;
      else if (this.#throttle && this.#throttle.count > 0) {
        this.#throttle.count -= 1;
        if (this.#throttle.status !== 429)
          return send(this.#throttle.status, {
            error: {
              message: 'The server had an error processing your request.',
              type: 'server_error',
              param: null,
              code: null,
            },
          });
        return send(
          429,
          {
            error: {
              message: 'Rate limit reached for requests.',
              type: 'requests',
              code: 'rate_limit_exceeded',
              param: null,
            },
          },
          { 'retry-after': this.#throttle.retryAfter },
        );
      }
      if (chunks.length)
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      if (Array.isArray(body.items)) entry.items = body.items.length;
      send(200, this.#route(entry.method, url, body));
    } catch (error) {
      const e = error instanceof ApiError ? error : new ApiError(500, String(error));
      send(e.status, {
        error: { message: e.message, type: 'invalid_request_error', param: e.param, code: null },
      });
    }
  }

  #route(method: string, url: URL, body: Record<string, unknown>): unknown {
    const parts = url.pathname
      .replace(/^\/v1/, '')
      .split('/')
      .filter(Boolean)
      .map(decodeURIComponent);
    if (parts[0] !== 'conversations')
      throw new ApiError(404, `Invalid URL (${method} ${url.pathname})`);
    if (parts.length === 1 && method === 'POST') {
      const items = this.#checkItems(body.items ?? []);
      const conversation: Conversation = {
        id: `conv_${hex(24)}`,
        created_at: Math.floor(Date.now() / 1000),
        metadata: checkMetadata(body.metadata),
        items,
      };
      this.conversations.set(conversation.id, conversation);
      return this.#view(conversation);
    }
    const conversation = this.conversations.get(parts[1] ?? '');
    if (!conversation) throw new ApiError(404, `Conversation with id '${parts[1]}' not found.`);
    if (parts.length === 2) {
      if (method === 'GET') return this.#view(conversation);
      if (method === 'POST') {
        conversation.metadata = checkMetadata(body.metadata);
        return this.#view(conversation);
      }
      if (method === 'DELETE') {
        this.conversations.delete(conversation.id);
        return { id: conversation.id, object: 'conversation.deleted', deleted: true };
      }
    }
    if (parts[2] !== 'items') throw new ApiError(404, `Invalid URL (${method} ${url.pathname})`);
    if (parts.length === 3 && method === 'POST') {
      if (!Array.isArray(body.items))
        throw new ApiError(400, "Missing required parameter: 'items'.", 'items');
      const added = this.#checkItems(body.items);
      conversation.items.push(...added);
      return {
        object: 'list',
        data: added,
        first_id: added[0]?.id,
        last_id: added.at(-1)?.id,
        has_more: false,
      };
    }
    if (parts.length === 3 && method === 'GET') return this.#list(conversation, url.searchParams);
    const index = conversation.items.findIndex((i) => i.id === parts[3]);
    if (index < 0) throw new ApiError(404, `Item with id '${parts[3]}' not found.`);
    if (method === 'GET') return conversation.items[index];
    if (method === 'DELETE') {
      conversation.items.splice(index, 1);
      return this.#view(conversation);
    }
    throw new ApiError(405, `Method ${method} not allowed on ${url.pathname}`);
  }

  #checkItems(items: unknown): Item[] {
    if (!Array.isArray(items))
      throw new ApiError(400, "Invalid type for 'items': expected an array.", 'items');
    if (items.length > 20)
      throw new ApiError(
        400,
        `Invalid 'items': array too long. Expected an array with maximum length 20, but got an array with length ${items.length} instead.`,
        'items',
      );
    return items.map(normalise);
  }

  #list(conversation: Conversation, query: URLSearchParams): unknown {
    const limit = Number(query.get('limit') ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new ApiError(
        400,
        `Invalid 'limit': integer below minimum value or above maximum value. Expected a value between 1 and 100, but got ${String(query.get('limit'))} instead.`,
        'limit',
      );
    const order = query.get('order') ?? 'desc';
    if (order !== 'asc' && order !== 'desc')
      throw new ApiError(
        400,
        `Invalid value: '${order}'. Supported values are: 'asc' and 'desc'.`,
        'order',
      );
    const ordered = order === 'asc' ? conversation.items : [...conversation.items].reverse();
    const after = query.get('after');
    let start = 0;
    if (after) {
      const at = ordered.findIndex((i) => i.id === after);
      if (at < 0) throw new ApiError(404, `Item with id '${after}' not found.`);
      start = at + 1;
    }
    const data = ordered.slice(start, start + limit);
    return {
      object: 'list',
      data,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      has_more: start + limit < ordered.length,
    };
  }

  #view(conversation: Conversation): unknown {
    return {
      id: conversation.id,
      object: 'conversation',
      created_at: conversation.created_at,
      metadata: conversation.metadata,
    };
  }
}
