#!/usr/bin/env node
// In a source checkout (src/ present, tsx installed) run the TypeScript sources, so the CLI
// never runs a stale build; an installed package ships only dist/ and runs that.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src', 'cli', 'main.ts');
let entry = join(root, 'dist', 'cli', 'main.js');
if (existsSync(source) && process.env.COLLOQUY_DIST !== '1') {
  try {
    const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
    esm.register();
    cjs.register();
    // src/cli/loadModule.ts then imports users' .ts modules through this same loader.
    globalThis[Symbol.for('colloquy.tsx.registered')] = true;
    entry = source;
  } catch {
    // tsx is a dev dependency: without it, fall back to the build.
  }
}
const { main } = await import(pathToFileURL(entry).href);
await main(process.argv);
// A failed command whose user module left a live handle (a timer, a socket: say, an import that
// timed out while still waiting) would otherwise keep the process alive: exit once output flushed.
if (process.exitCode) setTimeout(() => process.exit(), 1000).unref();
