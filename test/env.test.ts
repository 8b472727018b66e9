/**
 * `src/env.ts` is the one list of `COLLOQUY_*` variables: every variable named in `src/` is in it,
 * `docs/environment.md` documents exactly its variables, and values are read one way.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES, isOffValue, readEnv } from '../src/env.js';
import { ConfigError } from '../src/errors.js';

/** Names that look like variables but are not read from the environment. */
const NOT_VARIABLES = new Set(['COLLOQUY_FENCED']); // a Redis error reply tag (stores/redisScripts.ts)

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = join(dir, name);
    return statSync(file).isDirectory() ? sourceFiles(file) : file.endsWith('.ts') ? [file] : [];
  });
}

describe('COLLOQUY_* variables', () => {
  const known = new Set(Object.keys(ENV_VARIABLES));

  it('every variable named in src/ is declared in env.ts', () => {
    const named = new Set(
      sourceFiles('src').flatMap(
        (file) => readFileSync(file, 'utf8').match(/COLLOQUY_[A-Z_]+/g) ?? [],
      ),
    );
    const undeclared = [...named].filter((name) => !known.has(name) && !NOT_VARIABLES.has(name));
    expect(undeclared).toEqual([]);
    expect(named.size).toBeGreaterThan(10);
  });

  it('docs/environment.md lists exactly the declared variables', () => {
    const rows = readFileSync('docs/environment.md', 'utf8')
      .split('\n')
      .map((line) => /^\| `(COLLOQUY_[A-Z_]+)`/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);
    expect(rows.sort()).toEqual([...known].sort());
  });

  it('reads text, switches and numbers one way', () => {
    expect(readEnv('COLLOQUY_DB', { COLLOQUY_DB: ' ' })).toBeUndefined();
    expect(readEnv('COLLOQUY_DB', { COLLOQUY_DB: 'x.db' })).toBe('x.db');
    expect(readEnv('COLLOQUY_DEBUG', {})).toBe(false);
    expect(readEnv('COLLOQUY_DEBUG', { COLLOQUY_DEBUG: '1' })).toBe(true);
    expect(readEnv('COLLOQUY_IMPORT_TIMEOUT_MS', { COLLOQUY_IMPORT_TIMEOUT_MS: '250' })).toBe(250);
    expect(isOffValue('OFF')).toBe(true);
    expect(isOffValue('on')).toBe(false);
  });

  it('a malformed number names the variable and the fix', () => {
    const read = () =>
      readEnv('COLLOQUY_IMPORT_TIMEOUT_MS', { COLLOQUY_IMPORT_TIMEOUT_MS: 'soon' });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(
      /COLLOQUY_IMPORT_TIMEOUT_MS must be a positive whole number \(got "soon"\)/,
    );
  });
});
