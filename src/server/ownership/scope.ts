/**
 * The one place ownership is checked: a middleware every route passes through. It finds the
 * matched route's policy (see `ROUTE_POLICIES`), checks the chat and run ids the request names
 * (path, body `chatId`/`user`/`previous_response_id`/`state`/`runId`, `x-colloquy-chat-id`), filters
 * lists to the user's own and checks single reads. Another user's record is a 404, exactly as an
 * unknown one; admins see all. Requests without a signed-in user (API-key mode) are not scoped.
 * @module
 */
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { parsePendingCall } from '../../agency/approvals.js';
import { currentPrincipal, type Principal } from '../auth/principal.js';
import { HttpError, notFound, runNotFound } from '../errors.js';
import { readChatIdHeader } from '../chatIdHeader.js';
import type { ServerRegistry } from '../registry.js';
import { chatIdOfResponse } from '../routes/openaiResponses.js';
import { RUN_ID_HEADER } from '../runs/streamedRun.js';
import type { OwnerRecords } from './owners.js';
import { callUser } from './callUser.js';
import { paramsOf, ROUTE_POLICIES, type OwnedIds, type RoutePolicy } from './policies.js';

/** The 404 of a chat the user may not see: the same as for a chat that does not exist. */
export function chatNotFound(chatId: string): HttpError {
  return notFound(
    'CHAT_NOT_FOUND',
    `Chat "${chatId}"`,
    [],
    'No served agency has threads in that chat: check the chat id (it is in every response as chatId), or run a message in it first.',
  );
}

/** Ownership checks for one user. */
export class Scope {
  constructor(
    readonly principal: Principal,
    readonly owners: OwnerRecords,
    readonly registry: ServerRegistry,
  ) {}

  /** Whether the user may see the chat (an admin sees every chat). */
  async ownsChat(chatId: string): Promise<boolean> {
    if (this.principal.admin) return true;
    return (await this.owners.ownerOf('chat', chatId)) === this.principal.userId;
  }

  /** Whether the user may see the run. */
  async ownsRun(runId: string): Promise<boolean> {
    if (this.principal.admin) return true;
    return (await this.owners.ownerOf('run', runId)) === this.principal.userId;
  }

  /** Whether the user may see a record of these ids (one without any: admins only). */
  async owns(ids: OwnedIds): Promise<boolean> {
    if (this.principal.admin) return true;
    if (ids.chatId) return this.ownsChat(ids.chatId);
    if (ids.runId) return this.ownsRun(ids.runId);
    return false;
  }

  /**
   * Lets the user name `chatId` in a call: their own chat, or a new one (claimed now). Another
   * user's chat, or an existing chat nobody claimed (made before users were on), is a 404.
   */
  async admitChat(chatId: string): Promise<void> {
    const owner = await this.owners.ownerOf('chat', chatId);
    if (owner === this.principal.userId || (owner !== null && this.principal.admin)) return;
    if (owner !== null) throw chatNotFound(chatId);
    const exists = await this.registry.chats.agencyOf(chatId).then(
      () => true,
      (error: unknown) => {
        if (error instanceof HttpError && error.status === 404) return false;
        throw error;
      },
    );
    if (exists && !this.principal.admin) throw chatNotFound(chatId);
    if (exists) return;
    if ((await this.owners.claim('chat', chatId, this.principal.userId)) !== this.principal.userId)
      throw chatNotFound(chatId);
  }

  /** Lets the user name a run id to start: their own, or a new one (claimed now). */
  async admitRun(runId: string): Promise<void> {
    const owner = await this.owners.claim('run', runId, this.principal.userId);
    if (owner !== this.principal.userId && !this.principal.admin) throw runNotFound(runId);
  }
}

async function bodyFields(c: Context): Promise<Record<string, unknown>> {
  if ((c.req.header('content-type') ?? '').startsWith('multipart/form-data')) {
    // The handler reads the same cached parse (Hono caches parseBody; it ignores options then).
    return (await c.req.parseBody({ all: true }).catch(() => ({}))) as Record<string, unknown>;
  }
  try {
    const parsed: unknown = JSON.parse((await c.req.text()) || '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {}; // not JSON: the handler answers 400 INVALID_JSON
  }
}

/** The chat ids a call request names (invalid ones are left for the handler's 400). */
async function namedChatIds(c: Context, extraFields: readonly string[] = []): Promise<string[]> {
  const body = await bodyFields(c);
  const ids = new Set<string>();
  const tryAdd = (read: () => string | undefined) => {
    try {
      const id = read();
      if (id) ids.add(id);
    } catch {
      // Not readable: the handler answers 400 naming the field or header.
    }
  };
  tryAdd(() => readChatIdHeader(c));
  for (const field of ['chatId', 'user', ...extraFields]) {
    if (typeof body[field] === 'string' && body[field] !== '') ids.add(body[field]);
  }
  if (typeof body.previous_response_id === 'string')
    tryAdd(() => chatIdOfResponse(body.previous_response_id as string));
  if (typeof body.state === 'string') tryAdd(() => parsePendingCall(body.state as string).chatId);
  return [...ids];
}

async function responseJson(c: Context): Promise<Record<string, unknown> | null> {
  if (!(c.res.headers.get('content-type') ?? '').includes('application/json')) return null;
  return (await c.res.clone().json()) as Record<string, unknown>;
}

async function enforce(c: Context, policy: RoutePolicy, scope: Scope, next: () => Promise<void>) {
  const params = paramsOf(routePath(c, -1), c.req.path);
  switch (policy.kind) {
    case 'open':
    case 'schedule': // the schedules route scopes them by their recorded user
      return next();
    case 'chat': {
      const chatId = params[policy.param]!;
      if (!(await scope.ownsChat(chatId))) throw chatNotFound(chatId);
      await next();
      const body = policy.claimResponseChat && c.res.ok ? await responseJson(c) : null;
      if (typeof body?.chatId === 'string') {
        await scope.owners.claim('chat', body.chatId, scope.principal.userId);
      }
      return;
    }
    case 'run': {
      const runId = params[policy.param]!;
      if (!(await scope.ownsRun(runId))) throw runNotFound(runId);
      return next();
    }
    case 'call': {
      // Memory: a body userId naming another user is refused before the call starts.
      const userId = (await bodyFields(c)).userId;
      if (typeof userId === 'string') callUser({ userId });
      for (const chatId of await namedChatIds(c, policy.chatFields)) await scope.admitChat(chatId);
      await next();
      // The background run the call became: named in the body (`/runs`) or, for a stream, in
      // the x-colloquy-run-id header. Claimed before the client gets the answer.
      const body = policy.claimResponseRun && c.res.ok ? await responseJson(c) : null;
      const runId = typeof body?.runId === 'string' ? body.runId : c.res.headers.get(RUN_ID_HEADER);
      if (runId) await scope.owners.claim('run', runId, scope.principal.userId);
      return;
    }
    case 'user': {
      const userId = params[policy.param]!;
      if (!scope.principal.admin && userId !== scope.principal.userId)
        throw notFound(
          'ROUTE_NOT_FOUND',
          `Memory of user "${userId}"`,
          [],
          "A signed-in user sees only their own memory: use your own user id (the token's sub).",
        );
      return next();
    }
    case 'response': {
      const id = params[policy.param]!;
      let chatId: string | undefined;
      try {
        chatId = chatIdOfResponse(id);
      } catch {
        return next(); // not a response id: the handler answers 400 naming it
      }
      if (!(await scope.ownsChat(chatId)))
        throw notFound('RESPONSE_NOT_FOUND', `Response "${id.slice(0, 80)}"`, [], 'Check the id.');
      return next();
    }
    case 'admin': {
      if (!scope.principal.admin)
        throw notFound(
          'ROUTE_NOT_FOUND',
          `Route "${c.req.method} ${c.req.path}"`,
          [],
          'This route is for admins when the server signs users in (docs/auth.md).',
        );
      return next();
    }
    case 'startRun': {
      const { runId } = await bodyFields(c);
      if (typeof runId === 'string' && runId !== '') await scope.admitRun(runId);
      return next();
    }
    case 'list': {
      await next();
      const body = c.res.ok ? await responseJson(c) : null;
      const entries = body?.[policy.field];
      if (!body || !Array.isArray(entries)) return;
      const kept = [];
      for (const entry of entries as Array<Record<string, unknown>>) {
        if (await scope.owns(policy.idsOf(entry))) kept.push(entry);
      }
      c.res = c.json({ ...body, [policy.field]: kept }, c.res.status as 200);
      return;
    }
    case 'record': {
      await next();
      const body = c.res.ok ? await responseJson(c) : null;
      if (body && !(await scope.owns(policy.idsOf(body)))) {
        const { code, what, hint } = policy.notFound;
        const id = Object.values(params)[0] ?? '';
        throw notFound(code, `${what} "${id}"`, [], hint);
      }
      return;
    }
  }
}

/** The ownership middleware: mount after authentication, before the routes. */
export function ownership(
  owners: OwnerRecords,
  registry: ServerRegistry,
  policies: Readonly<Record<string, RoutePolicy>> = ROUTE_POLICIES,
): MiddlewareHandler {
  return async (c, next) => {
    const principal = currentPrincipal();
    if (!principal) return next();
    const route = `${c.req.method === 'HEAD' ? 'GET' : c.req.method} ${routePath(c, -1)}`;
    if (routePath(c, -1) === '/*') return next(); // no route matched: the 404 handler answers
    const policy = policies[route] ?? policies[`ALL ${routePath(c, -1)}`];
    if (!policy) {
      throw new HttpError(
        500,
        'INTERNAL_ERROR',
        `Route "${route}" has no ownership policy, so it is refused to signed-in users. Add it to ROUTE_POLICIES (src/server/ownership/policies.ts).`,
      );
    }
    return enforce(c, policy, new Scope(principal, owners, registry), next);
  };
}
