/**
 * Readable errors for YAML files checked with zod: every problem names the file, the
 * `line:column` of the offending node, the path and what was expected. Used by `colloquy.yaml`,
 * profile files and ensemble files.
 * @module
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document, Node } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from './errors.js';

/** A 1-based position in a YAML file. */
export interface YamlLocation {
  line: number;
  column: number;
}

/** A zod issue, reduced to what {@link formatYamlIssues} reads (works with zod 4 issues). */
export interface YamlIssueLike {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  keys?: readonly string[];
}

/** Options of {@link formatYamlIssues}. */
export interface FormatYamlIssuesOptions {
  /** The file name shown in messages. */
  file: string;
  /** The parsed document (from `parseDocument(text, { lineCounter })`). */
  doc: Document;
  /** The line counter passed to `parseDocument`. */
  lineCounter: LineCounter;
  /** The zod issues to format. */
  issues: readonly YamlIssueLike[];
}

/** A YAML file parsed with positions kept, ready for {@link formatYamlIssues}. */
export interface ParsedYaml {
  file: string;
  doc: Document;
  lineCounter: LineCounter;
  /** The plain JS value of the document (`undefined` for an empty file). */
  value: unknown;
}

function childOf(node: unknown, key: PropertyKey): { key?: Node; value?: unknown } | undefined {
  if (isMap(node)) {
    const pair = node.items.find(
      (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(key),
    );
    return pair ? { key: pair.key as Node, value: pair.value } : undefined;
  }
  if (isSeq(node) && typeof key === 'number') {
    return key < node.items.length ? { value: node.items[key] } : undefined;
  }
  return undefined;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? range[0] : undefined;
}

/**
 * Finds the position of the node at `path` (keys and indexes). When `path` goes past what the
 * document has (a missing key), the deepest existing node is used. With `preferKey`, the position
 * of the last key itself is returned (for unknown keys).
 *
 * @example
 * ```ts
 * const lineCounter = new LineCounter();
 * const doc = parseDocument(text, { lineCounter });
 * locateYamlPath(doc, ['profiles', 'fast', 'provider'], lineCounter); // { line: 4, column: 15 }
 * ```
 */
export function locateYamlPath(
  doc: Document,
  path: readonly PropertyKey[],
  lineCounter: LineCounter,
  preferKey = false,
): YamlLocation | undefined {
  let node: unknown = doc.contents;
  let offset = rangeStart(node);
  for (let i = 0; i < path.length; i++) {
    const child = childOf(node, path[i]!);
    if (!child) break;
    const isLast = i === path.length - 1;
    const target = isLast && preferKey && child.key ? child.key : (child.value ?? child.key);
    offset = rangeStart(target) ?? rangeStart(child.key) ?? offset;
    node = child.value;
  }
  if (offset === undefined) return undefined;
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

/** Renders a path as `profiles.fast.provider` or `steps[2].agent` ('(top level)' when empty). */
export function formatYamlPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    out += typeof part === 'number' ? `[${part}]` : out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(top level)' : out;
}

/**
 * Formats zod issues as one line each: `file:line:column: path: message`. Unknown keys are
 * located at the key itself and listed with their names.
 */
export function formatYamlIssues(options: FormatYamlIssuesOptions): string {
  const { file, doc, lineCounter, issues } = options;
  const lines: string[] = [];
  for (const issue of issues) {
    const unknownKeys = issue.code === 'unrecognized_keys' && issue.keys ? issue.keys : undefined;
    for (const key of unknownKeys ?? [undefined]) {
      const path = key === undefined ? issue.path : [...issue.path, key];
      const where = locateYamlPath(doc, path, lineCounter, key !== undefined);
      const at = where ? `${file}:${where.line}:${where.column}` : file;
      const message =
        key === undefined
          ? issue.message
          : `unknown key "${key}" (remove it or check its spelling)`;
      lines.push(`${at}: ${formatYamlPath(path)}: ${message}`);
    }
  }
  return lines.join('\n');
}

/** Parses YAML text keeping positions; a syntax error becomes a ConfigError with line:column. */
export function parseYamlText(file: string, text: string): ParsedYaml {
  const problem = checkYamlLimits(text);
  if (problem) throw new ConfigError(`${file}: ${problem.message}.`);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const first = doc.errors[0];
  if (first) {
    const { line, col } = lineCounter.linePos(first.pos[0]);
    throw new ConfigError(
      `${file}:${line}:${col}: invalid YAML: ${first.message.split('\n')[0]}. Fix the syntax at that position.`,
    );
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: DEFAULT_YAML_LIMITS.maxAliases }) as unknown;
  } catch (error) {
    throw new ConfigError(
      `${file}: invalid YAML: ${(error as Error).message}. Define every anchor (&name) before its alias (*name).`,
      { cause: error },
    );
  }
  return { file, doc, lineCounter, value };
}

/**
 * Parses YAML text and checks it with a zod schema; every problem is reported with its position
 * in one ConfigError.
 */
export function parseYamlWithSchema<S extends z.ZodType>(
  file: string,
  text: string,
  schema: S,
): z.output<S> {
  const parsed = parseYamlText(file, text);
  const result = schema.safeParse(parsed.value ?? {});
  if (result.success) return result.data;
  const details = formatYamlIssues({ ...parsed, issues: result.error.issues as YamlIssueLike[] });
  throw new ConfigError(`${file} is invalid:\n${details}`);
}

/** Limits checked on YAML text before it is parsed. */
export interface YamlLimits {
  /** The largest document, in UTF-16 code units (default 2 MiB). */
  maxBytes?: number;
  /** The most keys in one mapping (default 2,000; the `yaml` parser is quadratic in them). */
  maxKeysPerMap?: number;
  /** The most keys in the whole document (default 100,000). */
  maxKeys?: number;
  /** The most aliases (`*name`) (default 1,000). */
  maxAliases?: number;
}

/** The default {@link YamlLimits}. */
export const DEFAULT_YAML_LIMITS: Required<YamlLimits> = {
  maxBytes: 2 * 1024 * 1024,
  maxKeysPerMap: 2_000,
  maxKeys: 100_000,
  maxAliases: 1_000,
};

/** What {@link checkYamlLimits} found over a limit. */
export interface YamlLimitProblem {
  /** Which limit: `size`, `keys`, `map` (keys of one mapping) or `aliases`. */
  limit: 'size' | 'keys' | 'map' | 'aliases';
  /** The counted value and the limit it passed. */
  count: number;
  max: number;
  /** The 1-based line where the limit was passed (1 for size). */
  line: number;
  message: string;
}

// Anchored at a line start, no nested quantifiers: linear in the line.
const BLOCK_KEY = /^( *)(- +)?(?:"[^"]*"|'[^']*'|[^\s#:"'][^:#]*):(?:[ \t]|$)/;
const FLOW_KEY = /:(?=[ \t])/g;
const ALIAS_PATTERN = /(?:^|[ \t\n,[{])\*[^ \t\r\n,[\]{}]/g;

function countMatches(text: string, pattern: RegExp, stopAt: number): number {
  let count = 0;
  pattern.lastIndex = 0;
  while (pattern.exec(text) !== null) if (++count > stopAt) break;
  return count;
}

/**
 * Checks YAML text against size, key and alias caps without parsing it (one linear pass), so that
 * a hostile or generated file fails fast with a clear message instead of making the parser work
 * for seconds. Block-mapping keys are counted per mapping by indentation; a line holding a flow
 * mapping counts each `key: ` in it. Text in block scalars may count as keys: an upper bound.
 *
 * @example
 * ```ts
 * const problem = checkYamlLimits(text);
 * if (problem) throw new ConfigError(`team.yaml:${problem.line}: ${problem.message}`);
 * ```
 */
export function checkYamlLimits(
  text: string,
  limits: YamlLimits = {},
): YamlLimitProblem | undefined {
  const max = { ...DEFAULT_YAML_LIMITS, ...limits };
  if (text.length > max.maxBytes)
    return {
      limit: 'size',
      count: text.length,
      max: max.maxBytes,
      line: 1,
      message: `the document is ${text.length} characters, over the limit of ${max.maxBytes}; split it into smaller files`,
    };
  const maps: { indent: number; count: number }[] = [];
  let total = 0;
  let lineNumber = 0;
  for (const line of text.split('\n')) {
    lineNumber++;
    const match = BLOCK_KEY.exec(line);
    // Flow keys after the block key (a line's own `key: ` is counted once, below).
    if (line.includes('{'))
      total += countMatches(line.slice(match?.[0].length ?? 0), FLOW_KEY, max.maxKeys);
    if (match) {
      total++;
      const indent = match[1]!.length + (match[2]?.length ?? 0);
      while (maps.length && maps[maps.length - 1]!.indent > indent) maps.pop();
      const top = maps[maps.length - 1];
      if (match[2] || !top || top.indent !== indent) {
        if (top && top.indent === indent) maps.pop();
        maps.push({ indent, count: 1 });
      } else if (++top.count > max.maxKeysPerMap)
        return {
          limit: 'map',
          count: top.count,
          max: max.maxKeysPerMap,
          line: lineNumber,
          message: `a mapping has more than ${max.maxKeysPerMap} keys (line ${lineNumber}); split it into smaller mappings or files`,
        };
    }
    if (total > max.maxKeys)
      return {
        limit: 'keys',
        count: total,
        max: max.maxKeys,
        line: lineNumber,
        message: `the document has more than ${max.maxKeys} keys; split it into smaller files`,
      };
  }
  const aliases = countMatches(text, ALIAS_PATTERN, max.maxAliases);
  if (aliases > max.maxAliases)
    return {
      limit: 'aliases',
      count: aliases,
      max: max.maxAliases,
      line: 1,
      message: `the document has more than ${max.maxAliases} aliases (*name); write the values out or use fewer anchors`,
    };
  return undefined;
}
