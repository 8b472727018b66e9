/**
 * Vitest setup file: every test file runs with its own empty `HOME` and `XDG_CONFIG_HOME`, so
 * nothing on the machine (an llm-orc user's `~/.config/llm-orc`, a `~/.config/colloquy` profile
 * file) changes what a test sees, and no test writes into the real home directory. Child
 * processes spawned by tests inherit the same folders through `process.env`.
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

const home = mkdtempSync(path.join(os.tmpdir(), 'colloquy-home-'));
const config = path.join(home, '.config');
mkdirSync(config);
process.env.HOME = home;
process.env.USERPROFILE = home;
process.env.XDG_CONFIG_HOME = config;

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});
