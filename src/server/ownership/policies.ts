/**
 * How each route is scoped to its user: the one table the ownership middleware reads. A route
 * missing here is refused for signed-in users (fail closed), and the route test enumerates the
 * app's routes against this table, so a new route cannot ship unscoped by accident.
 * @module
 */

/** Ids a JSON entry (a listed record, or a single record read) belongs to. */
export interface OwnedIds {
  chatId?: string | null | undefined;
  runId?: string | null | undefined;
}

/** How one route is scoped. */
export type RoutePolicy =
  /** Serves no user's records (agency and ensemble descriptions, models, health, the studio page). */
  | { kind: 'open' }
  /** A path parameter names a chat the user must own; `claimResponseChat` claims the answer's `chatId` (a fork). */
  | { kind: 'chat'; param: string; claimResponseChat?: boolean }
  /** A path parameter names a run the user must own. */
  | { kind: 'run'; param: string }
  /**
   * Starts or continues an agency call: chat ids named in the body (`chatId`, `user`,
   * `previous_response_id`), the `x-colloquy-chat-id` header or an approval `state` must be the
   * user's or new (then claimed); a call without one is claimed as it starts (scoped executor).
   */
  | {
      kind: 'call';
      claimResponseRun?: boolean;
      /** Body fields that name the chat besides `chatId`/`user` (AG-UI `threadId`, AI SDK `id`). */
      chatFields?: readonly string[];
    }
  /** A path parameter names the user whose records these are: the user themself, or an admin. */
  | { kind: 'user'; param: string }
  /** A response id (`resp_…`) in a path parameter: the chat it belongs to must be the user's. */
  | { kind: 'response'; param: string }
  /** Aggregates over every user's records, or runs calls out of reach of the checks: admins only. */
  | { kind: 'admin' }
  /** Starts an ensemble run: a `runId` in the body must be the user's or new; the run is claimed. */
  | { kind: 'startRun' }
  /**
   * Schedules (s7-schedules): each records the `user` it runs as, and the schedules route keeps a
   * signed-in user to their own (adds for themself, lists and removes their own; another user's
   * is a 404), admins to all. The record's user is the owner, so no owner record is needed.
   */
  | { kind: 'schedule' }
  /** A list whose entries (under `field`) are filtered to the user's own. */
  | { kind: 'list'; field: string; idsOf: (entry: Record<string, unknown>) => OwnedIds }
  /** A single record, checked after the handler read it; another user's reads as `notFound`. */
  | {
      kind: 'record';
      idsOf: (body: Record<string, unknown>) => OwnedIds;
      notFound: { code: 'THREAD_NOT_FOUND' | 'TRACE_NOT_FOUND'; what: string; hint: string };
    };

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const sub = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** Every route of `createApp`, by `METHOD path` as Hono registers it. */
export const ROUTE_POLICIES: Readonly<Record<string, RoutePolicy>> = {
  // Allow-list: these routes read nothing any user owns.
  'GET /health': { kind: 'open' }, // liveness and agency names
  'GET /': { kind: 'open' }, // the studio page (it asks for a token)
  'GET /studio': { kind: 'open' }, // the studio page
  'GET /studio/': { kind: 'open' }, // the studio page
  'GET /studio/assets/*': { kind: 'open' }, // its scripts and styles
  'GET /agencies': { kind: 'open' }, // configured agencies, no chats
  'GET /agencies/:name': { kind: 'open' }, // one agency's agents and flows
  'GET /agencies/:name/graph': { kind: 'open' }, // the same as a graph
  'GET /ensembles': { kind: 'open' }, // configured ensembles
  'GET /ensembles/:name': { kind: 'open' }, // one ensemble's definition
  'GET /v1/models': { kind: 'open' }, // agencies as OpenAI models
  'GET /v1/models/:id': { kind: 'open' }, // one of them

  // Calls: chat ids named by the client are checked, new chats are claimed.
  'POST /agencies/:name/responses': { kind: 'call' },
  'POST /agencies/:name/responses/stream': { kind: 'call' },
  'POST /agencies/:name/resume': { kind: 'call' },
  'POST /agencies/:name/runs': { kind: 'call', claimResponseRun: true }, // a background call
  'POST /v1/chat/completions': { kind: 'call' },
  'POST /v1/responses': { kind: 'call' },
  'POST /agencies/:name/ag-ui': { kind: 'call', chatFields: ['threadId'] }, // AG-UI RunAgentInput
  'POST /agencies/:name/ui-messages': { kind: 'call', chatFields: ['id'] }, // AI SDK chat id
  'DELETE /agencies/:name/chats/:chatId/calls': { kind: 'chat', param: 'chatId' },
  'GET /v1/responses/:id': { kind: 'response', param: 'id' }, // the id names its chat
  // MCP tools take chat ids inside JSON-RPC arguments, which this middleware does not read.
  'ALL /mcp': { kind: 'admin' },

  // Chats, threads, checkpoints.
  'GET /chats': {
    kind: 'list',
    field: 'chats',
    idsOf: (entry) => ({ chatId: str(entry.chatId) }),
  },
  'GET /chats/:chatId/threads': { kind: 'chat', param: 'chatId' },
  'GET /chats/:chatId/checkpoints': { kind: 'chat', param: 'chatId' },
  'POST /chats/:chatId/checkpoints': { kind: 'chat', param: 'chatId' },
  'POST /chats/:chatId/fork': { kind: 'chat', param: 'chatId', claimResponseChat: true },
  'POST /chats/:chatId/rollback': { kind: 'chat', param: 'chatId' },
  'DELETE /chats/:chatId': { kind: 'chat', param: 'chatId' },
  'GET /threads/:id': {
    kind: 'record',
    idsOf: (body) => ({ chatId: str(sub(body.thread).chatId) }),
    notFound: {
      code: 'THREAD_NOT_FOUND',
      what: 'Thread',
      hint: "List a chat's threads with GET /chats/:chatId/threads to get thread ids.",
    },
  },

  // What if? (replay): re-runs a turn of the caller's chat in a fork, which becomes theirs.
  'POST /chats/:chatId/replay': { kind: 'chat', param: 'chatId', claimResponseChat: true },

  // Ensemble runs.
  'POST /ensembles/:name/runs': { kind: 'startRun' },
  'GET /runs': { kind: 'list', field: 'runs', idsOf: (entry) => ({ runId: str(entry.runId) }) },
  'GET /runs/:id': { kind: 'run', param: 'id' },
  'GET /runs/:id/events': { kind: 'run', param: 'id' },
  'DELETE /runs/:id': { kind: 'run', param: 'id' },
  'POST /runs/:id/resume': { kind: 'run', param: 'id' },

  // Memory: a user's own records (recall vectors, working memory, summaries).
  'GET /memory/:agency/users/:userId': { kind: 'user', param: 'userId' },
  'GET /memory/:agency/users/:userId/search': { kind: 'user', param: 'userId' },
  'DELETE /memory/:agency/users/:userId': { kind: 'user', param: 'userId' },
  'POST /memory/:agency/users/:userId/working/rollback': { kind: 'user', param: 'userId' },

  // The agency as a network: edges aggregated over every user's traces.
  'GET /agencies/:name/network': { kind: 'admin' },

  // Eval results: files the operator's eval runs wrote, no user's records.
  'GET /evals': { kind: 'admin' },
  'GET /evals/:runId': { kind: 'admin' },

  // Traces.
  'GET /traces': {
    kind: 'list',
    field: 'traces',
    idsOf: (entry) => ({ chatId: str(entry.chatId), runId: str(entry.runId) }),
  },
  'GET /traces/:traceId': {
    kind: 'record',
    idsOf: (body) => ({ chatId: str(sub(body.trace).chatId), runId: str(sub(body.trace).runId) }),
    notFound: {
      code: 'TRACE_NOT_FOUND',
      what: 'Trace',
      hint: 'List the stored traces with GET /traces?chatId=CHAT.',
    },
  },

  // Schedules (s7-schedules): owned by their user, scoped by the route (see `kind: 'schedule'`).
  'POST /schedules': { kind: 'schedule' },
  'GET /schedules': { kind: 'schedule' },
  'DELETE /schedules/:id': { kind: 'schedule' },
};

/** The params of `path` matched against a route `pattern` (`/chats/:chatId/threads`). */
export function paramsOf(pattern: string, path: string): Record<string, string> {
  const names = pattern.split('/');
  const values = path.split('/');
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    if (name.startsWith(':') && values[i] !== undefined) {
      params[name.slice(1)] = decodeURIComponent(values[i]!);
    }
  });
  return params;
}
