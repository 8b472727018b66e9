/**
 * `/mcp`: the MCP server (see `../mcp.ts`) over Streamable HTTP, stateless: every request gets a
 * fresh server and transport, so any instance behind a load balancer can answer it. Conversations
 * continue through the `chatId` the tools return, not through MCP sessions.
 * @module
 */
import { Hono } from 'hono';
import type { RouteContext } from '../context.js';
import { createMcpServer } from '../mcp.js';

/** `POST /mcp` (and `GET`/`DELETE`, which a stateless server answers 405). */
export function mcpRoutes(context: RouteContext): Hono {
  const app = new Hono();
  app.all('/mcp', async (c) => {
    const { WebStandardStreamableHTTPServerTransport } =
      await import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js');
    const server = await createMcpServer(context);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: false,
    });
    await server.connect(transport);
    const response = await context.inflight.track(transport.handleRequest(c.req.raw));
    // A stateless transport serves one request: close it once the answer has been sent.
    void response
      .clone()
      .body?.pipeTo(new WritableStream())
      .finally(() => void server.close());
    return response;
  });
  return app;
}
