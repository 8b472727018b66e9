/**
 * Working memory: a small per-user document (free text, or fields of a zod schema) added to every
 * agent's instructions and updated through the `update_working_memory` tool. Every update is a new
 * version, so it can be rolled back.
 * @module
 */
import { tool, type Tool } from '@openai/agents-core';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import type { MemoryOwner } from './recall.js';
import type { MemoryBackend, WorkingMemoryVersion } from './types.js';

/** The tool's name. */
export const WORKING_MEMORY_TOOL = 'update_working_memory';

/** The instructions block of a working-memory document. */
export function workingInstructions(content: string | undefined, structured: boolean): string {
  return (
    '<working-memory>\nWhat you know about this user across conversations' +
    (structured ? ' (JSON)' : '') +
    `:\n${content ?? '(nothing yet)'}\n</working-memory>\n` +
    `When you learn something lasting about the user (name, preferences, goals), call ${WORKING_MEMORY_TOOL} ` +
    'with the whole updated document.'
  );
}

/** The `update_working_memory` tool for one user, writing to `backend`. */
export function workingMemoryTool(
  backend: MemoryBackend,
  owner: MemoryOwner,
  schema: z.ZodObject | undefined,
): Tool<any> {
  const parameters = schema ?? z.object({ content: z.string().describe('The whole document.') });
  return tool({
    name: WORKING_MEMORY_TOOL,
    description:
      'Replace the working memory about this user (kept across conversations) with a new version.',
    parameters: parameters as z.ZodObject<any>,
    execute: async (args: unknown) => {
      const content = schema
        ? JSON.stringify(args)
        : String((args as { content: unknown }).content);
      const version = await backend.putWorking(owner.agency, owner.userId, content);
      return `Working memory saved (version ${version.version}).`;
    },
  });
}

/**
 * Restores working memory to an earlier version, as a new version (history is kept). Returns it.
 */
export async function rollbackWorkingMemory(
  backend: MemoryBackend,
  owner: MemoryOwner,
  version: number,
): Promise<WorkingMemoryVersion> {
  const versions = await backend.workingVersions(owner.agency, owner.userId);
  const target = versions.find((v) => v.version === version);
  if (!target) {
    throw new ConfigError(
      `User "${owner.userId}" of agency "${owner.agency}" has no working-memory version ${version}. Versions: ${versions.map((v) => v.version).join(', ') || '(none)'}.`,
    );
  }
  return backend.putWorking(owner.agency, owner.userId, target.content);
}
