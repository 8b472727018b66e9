/**
 * The served agencies and ensembles as an MCP server (`@modelcontextprotocol/sdk`, an optional
 * dependency loaded when first used): each agency is a tool `ask_<agency>` (`{ message, chatId? }`
 * in; the answer as text and `{ answer, chatId, usage }` as structured content; pass `chatId` back
 * to continue the chat; tool approvals: see `mcpAsk.ts`), each ensemble a tool `run_<ensemble>`
 * (`{ input? }` in; the run's result out, with MCP progress notifications while it runs).
 * `colloquy mcp` serves it over stdio, `POST /mcp` over Streamable HTTP.
 * @module
 */
import type { ColloquyRuntime } from '../runtime.js';
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ColloquyError, errorInfo } from '../errors.js';
import type { Executor } from './executor.js';
import { ask, askInputSchema, askOutputSchema } from './mcpAsk.js';
import { publicError, publicMessage } from './publicError.js';
import type { ServerRegistry } from './registry.js';

type McpModule = typeof import('@modelcontextprotocol/sdk/server/mcp.js');

/** Loads the MCP SDK, or fails naming the package to install. */
export async function loadMcpSdk(): Promise<McpModule> {
  try {
    return await import('@modelcontextprotocol/sdk/server/mcp.js');
  } catch (error) {
    throw new ColloquyError(
      'CONFIG_INVALID',
      'The MCP server needs the MCP SDK, which is not installed. Run: npm install @modelcontextprotocol/sdk',
      { cause: error },
    );
  }
}

/** A tool name for a served name: characters MCP does not allow become `_`. */
export function mcpToolName(prefix: 'ask' | 'run', name: string): string {
  return `${prefix}_${name.replace(/[^A-Za-z0-9_.-]/g, '_')}`.slice(0, 128);
}

/** What the MCP server serves and where its work runs. */
export interface McpServerOptions {
  registry: ServerRegistry;
  executor: Executor;
  /**
   * The transport carries requests from the server (stdio; not stateless HTTP): approvals are
   * asked in the host by MCP elicitation when the client supports it. Default false.
   */
  elicit?: boolean;
  /** The runtime whose stopped calls `ask` continues (default: the default runtime). */
  runtime?: ColloquyRuntime;
}

function failure(text: string) {
  return { isError: true, content: [{ type: 'text' as const, text: publicMessage(text) }] };
}

/** Runs a tool's work; an error becomes an MCP tool error with a public message (no stack). */
async function guarded<T>(work: () => Promise<T>): Promise<T | ReturnType<typeof failure>> {
  try {
    return await work();
  } catch (error) {
    const info = errorInfo(publicError(error));
    return failure(`${info.code ?? info.name}: ${info.message}`);
  }
}

/** Builds an MCP server with a tool per agency and per ensemble. */
export async function createMcpServer(options: McpServerOptions): Promise<McpServer> {
  const { McpServer: Server } = await loadMcpSdk();
  const { registry, executor } = options;
  const server = new Server({ name: 'colloquy', version: '1' });
  for (const [name, agency] of registry.agencies) {
    const tool = mcpToolName('ask', name);
    server.registerTool(
      tool,
      {
        title: `Ask ${name}`,
        description: `Send a message to the agency "${name}" (entry point ${agency.entryPoints[0]}) and get its answer. Pass the chatId of an answer to continue that conversation. When the answer lists approvals, ask the user, then call again with the chatId and approve or reject.`,
        inputSchema: askInputSchema,
        outputSchema: askOutputSchema,
      },
      async (input, extra) =>
        guarded(() =>
          ask(
            {
              registry,
              executor,
              server,
              elicit: options.elicit ?? false,
              tool,
              runtime: options.runtime,
            },
            name,
            input,
            extra.signal,
          ),
        ),
    );
  }
  for (const name of await registry.ensembles.names()) {
    server.registerTool(
      mcpToolName('run', name),
      {
        title: `Run ${name}`,
        description: `Run the ensemble "${name}" on a task and return its result.`,
        inputSchema: { input: z.string().optional().describe('The task (default: its own)') },
      },
      async ({ input }, extra) =>
        guarded(async () => {
          const started = await executor.runs.start(name, input === undefined ? {} : { input });
          const token = extra._meta?.progressToken;
          let progress = 0;
          for await (const [, event] of executor.runs.follow(
            started.runId,
            undefined,
            extra.signal,
          )) {
            if (token !== undefined) {
              await extra.sendNotification({
                method: 'notifications/progress',
                params: { progressToken: token, progress: ++progress, message: event.type },
              });
            }
            if (event.type === 'error')
              return failure(`Run ${started.runId} failed: ${event.error.message}`);
            if (event.type === 'ensemble_finished') break;
          }
          const summary = await executor.runs.state(started.runId);
          const text = JSON.stringify(summary?.result ?? summary ?? { runId: started.runId });
          return { content: [{ type: 'text' as const, text }] };
        }),
    );
  }
  return server;
}
