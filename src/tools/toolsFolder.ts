/**
 * `toolsFromFolder`: every module in a folder that exports SDK tools (`tool(...)`, hosted tools,
 * agents as tools) gives them to an agent, as agency-swarm's `tools_folder` does.
 * @module
 */
import { readdir } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Tool } from '@openai/agents-core';
import { ConfigError } from '../errors.js';

/** Options of {@link toolsFromFolder}. */
export interface ToolsFolderOptions {
  /** Module extensions to load (default `.js`, `.mjs`, plus `.ts`/`.mts` when running under tsx). */
  extensions?: string[];
}

const TOOL_TYPES = new Set(['function', 'hosted_tool', 'computer', 'shell', 'apply_patch']);

/** Whether a module export is an SDK tool. */
export function isSdkTool(value: unknown): value is Tool {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as { type?: unknown; name?: unknown };
  return typeof candidate.name === 'string' && TOOL_TYPES.has(String(candidate.type));
}

function defaultExtensions(): string[] {
  // TypeScript modules load only where a loader is active (tsx, vitest).
  const typescript =
    process.execArgv.some((arg) => arg.includes('tsx')) || process.env.VITEST !== undefined;
  return ['.js', '.mjs', ...(typescript ? ['.ts', '.mts'] : [])];
}

/**
 * Imports every module directly in `folder` (sorted by file name; `*.test.*` and `*.d.ts` left
 * out) and returns the SDK tools they export, named or default, single or in arrays. Two tools
 * with one name are an error naming both files.
 *
 * @example
 * ```ts
 * const analyst = new Agent({
 *   name: 'Analyst',
 *   instructions: 'Use your tools.',
 *   tools: await toolsFromFolder('./tools'),
 * });
 * ```
 */
export async function toolsFromFolder(
  folder: string,
  options: ToolsFolderOptions = {},
): Promise<Tool[]> {
  const extensions = options.extensions ?? defaultExtensions();
  const dir = resolve(folder);
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: Error) => {
    throw new ConfigError(
      `toolsFolder "${folder}" cannot be read (${error.message}). Pass a folder of tool modules.`,
      { cause: error },
    );
  });
  const files = entries
    .filter((entry) => entry.isFile() && extensions.includes(extname(entry.name)))
    .map((entry) => entry.name)
    .filter((name) => !/\.(test|spec)\.[cm]?[jt]s$/.test(name) && !name.endsWith('.d.ts'))
    .sort();
  const byName = new Map<string, { tool: Tool; file: string }>();
  for (const file of files) {
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
    } catch (error) {
      throw new ConfigError(
        `toolsFolder "${folder}": ${file} failed to load (${(error as Error).message}). Fix the module or move it out of the folder.`,
        { cause: error },
      );
    }
    for (const value of Object.values(module).flatMap((v) => (Array.isArray(v) ? v : [v]))) {
      if (!isSdkTool(value)) continue;
      const earlier = byName.get(value.name);
      if (earlier && earlier.tool !== value) {
        throw new ConfigError(
          `toolsFolder "${folder}": the tool name "${value.name}" is exported by both ${earlier.file} and ${file}. Rename one of them.`,
        );
      }
      byName.set(value.name, { tool: value, file });
    }
  }
  return [...byName.values()].map(({ tool }) => tool);
}
