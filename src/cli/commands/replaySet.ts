/**
 * The `--set` flags of `colloquy threads replay`: `AGENT.instructions=@file.md`,
 * `AGENT.instructions=TEXT` or `AGENT.model=NAME`, checked against the agency's agents. Every
 * error names the flag as typed and the fix.
 * @module
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../errors.js';

/** What one agent's `--set` flags ask for (a model still as its name). */
export interface ParsedChange {
  instructions?: string;
  model?: string;
}

const KEYS = ['instructions', 'model'] as const;
const FORMS = 'AGENT.instructions=@FILE.md, AGENT.instructions=TEXT or AGENT.model=NAME';

/**
 * Parses every `--set` flag into changes by agent. `agents` are the agency's agent names; a file
 * named with `@` is read relative to `cwd`.
 */
export function parseSetFlags(
  flags: readonly string[],
  agents: readonly string[],
  agencyName: string,
  cwd = process.cwd(),
): Record<string, ParsedChange> {
  const changes: Record<string, ParsedChange> = {};
  for (const flag of flags) {
    const equals = flag.indexOf('=');
    const target = equals < 0 ? flag : flag.slice(0, equals);
    const dot = target.lastIndexOf('.');
    if (equals < 0 || dot <= 0) {
      throw new ConfigError(
        `--set "${flag}" is not of the form ${FORMS}. Example: --set Writer.model=gpt-4.1-mini`,
      );
    }
    const agent = target.slice(0, dot);
    const key = target.slice(dot + 1);
    const value = flag.slice(equals + 1);
    if (!agents.includes(agent)) {
      throw new ConfigError(
        `--set "${flag}": agency "${agencyName}" has no agent "${agent}". Use one of: ${agents.join(', ')}.`,
      );
    }
    if (!(KEYS as readonly string[]).includes(key)) {
      throw new ConfigError(
        `--set "${flag}": "${key}" cannot be changed; use ${agent}.instructions=@FILE.md|TEXT or ${agent}.model=NAME.`,
      );
    }
    if (value.trim() === '') {
      throw new ConfigError(`--set "${flag}": the ${key} is empty. Give a value after "=".`);
    }
    const change = (changes[agent] ??= {});
    if (change[key as (typeof KEYS)[number]] !== undefined) {
      throw new ConfigError(
        `--set "${flag}": ${agent}.${key} is set twice. Keep one --set ${agent}.${key}.`,
      );
    }
    change[key as (typeof KEYS)[number]] =
      key === 'instructions' && value.startsWith('@')
        ? readInstructions(flag, value.slice(1), cwd)
        : value;
  }
  return changes;
}

function readInstructions(flag: string, file: string, cwd: string): string {
  const full = path.resolve(cwd, file);
  try {
    return readFileSync(full, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `--set "${flag}": cannot read the instructions file ${full} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). ` +
        'Fix the path (relative to the current directory), or pass the instructions as text without "@".',
    );
  }
}
