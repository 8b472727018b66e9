import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { commandWord } from '../../src/cli/main.js';

const BIN = fileURLToPath(new URL('../../bin/colloquy.js', import.meta.url));
const HOOKS = fileURLToPath(new URL('./fixtures/registerRecordImports.mjs', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI and returns every module URL it resolved. */
function importsOf(
  args: string[],
  name: string,
  extraEnv: NodeJS.ProcessEnv = {},
): { urls: string[]; stdout: string } {
  const log = path.join(dir, `${name}.log`);
  const run = spawnSync(process.execPath, ['--import', HOOKS, BIN, ...args], {
    cwd: dir,
    env: {
      ...process.env,
      COLLOQUY_IMPORT_LOG: log,
      COLLOQUY_DB: path.join(dir, 'none.db'),
      ...extraEnv,
    },
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return { urls: readFileSync(log, 'utf8').split('\n').filter(Boolean), stdout: run.stdout };
}

/** Each pattern that matches a loaded module, with the first module it matched (none: `[]`). */
function loadedOf(urls: string[], patterns: RegExp[]): string[] {
  return patterns.flatMap((pattern) => {
    const hit = urls.find((url) => pattern.test(url));
    return hit ? [`${String(pattern)} loaded ${hit}`] : [];
  });
}

const HEAVY = [
  /@openai\/agents-(openai|extensions|core)/,
  /@ai-sdk\//,
  /node_modules\/ai\//,
  /better-sqlite3/,
  /node_modules\/(pg|redis|@redis)\//,
  /node_modules\/hono\//,
  /\/src\/server\//,
  /\/src\/(agency|stores|models)\//,
  /pino/,
];

describe('CLI start-up', () => {
  it('--help loads no provider, database driver, server or agency code', () => {
    const { urls, stdout } = importsOf(['--help'], 'help');
    expect(stdout).toMatch(/demo \[message\]/);
    expect(stdout).toMatch(/traces/);
    expect(urls.some((url) => url.includes('commander'))).toBe(true);
    for (const heavy of HEAVY)
      expect(
        urls.filter((url) => heavy.test(url)),
        String(heavy),
      ).toEqual([]);
  });

  it('threads list --store memory loads the memory store only: no SQLite, file store, provider or server', () => {
    const { urls } = importsOf(['threads', 'list', '--store', 'memory'], 'threads');
    expect(urls.some((url) => /\/stores\/memory\.(ts|js)$/.test(url))).toBe(true);
    expect(
      loadedOf(urls, [
        /@openai\/agents-(openai|extensions)/,
        /@ai-sdk\//,
        /\/src\/server\//,
        // openStore imports only the backend a spec names.
        /better-sqlite3/,
        /\/stores\/(sqlite|jsonFile)\.(ts|js)$/,
      ]),
    ).toEqual([]);
  });

  it('invoke of a script-only ensemble loads no model provider, OpenAI client or LLM runner', () => {
    writeFileSync(
      path.join(dir, 'one.yaml'),
      'name: one\nagents:\n  - name: greeter\n    script: echo \'{"success":true,"data":{"hello":"world"}}\'\n',
    );
    const { urls, stdout } = importsOf(['invoke', './one.yaml', '--output', 'json'], 'invoke');
    expect(stdout).toMatch(/"hello": "world"/);
    expect(urls.some((url) => /\/ensembles\/run\.(ts|js)$/.test(url))).toBe(true);
    expect(
      loadedOf(urls, [
        /@openai\/agents-(openai|extensions)/,
        /@ai-sdk\//,
        /node_modules\/openai\/index\.m?js/,
        /\/models\/(providers|resolve)\.(ts|js)$/,
        /\/ensembles\/llmAgent\.(ts|js)$/,
        /\/src\/server\//,
      ]),
    ).toEqual([]);
  });

  it('invoke of a script-only ensemble loads no SDK, memory backend or file search, traced or not', () => {
    writeFileSync(
      path.join(dir, 'one.yaml'),
      'name: one\nagents:\n  - name: greeter\n    script: echo \'{"success":true,"data":{"hello":"world"}}\'\n',
    );
    const db = path.join(dir, 'traced.db');
    const traced = importsOf(['invoke', './one.yaml', '--output', 'json'], 'invoke-traced', {
      COLLOQUY_DB: db,
      OPENAI_API_KEY: '',
    });
    // The run is traced all the same (without the SDK: ensembles/localTracing.ts).
    expect(traced.urls.some((url) => /\/ensembles\/localTracing\.(ts|js)$/.test(url))).toBe(true);
    const listed = spawnSync(process.execPath, [BIN, 'traces', 'list'], {
      cwd: dir,
      env: { ...process.env, COLLOQUY_DB: db },
      encoding: 'utf8',
    });
    expect(listed.stdout).toMatch(/ensemble one .* 3 spans/);
    const off = importsOf(['invoke', './one.yaml', '--output', 'json'], 'invoke-off', {
      COLLOQUY_TRACING: 'off',
    });
    for (const { urls, stdout } of [traced, off]) {
      expect(stdout).toMatch(/"hello": "world"/);
      expect(urls.some((url) => /better-sqlite3/.test(url))).toBe(true);
      expect(
        loadedOf(urls, [
          /@openai\/agents-core/,
          /node_modules\/openai\//,
          /@modelcontextprotocol\//,
          /\/src\/tracing\/(setup|hub)\.(ts|js)$/,
          /\/ensembles\/tracing\.(ts|js)$/,
          /\/memory\/(ensembleMemory|options|sqliteMemory|working)\.(ts|js)$/,
          /node_modules\/sqlite-vec/,
          /node_modules\/cli-table3/,
          /\/src\/files\//,
          /node_modules\/minisearch/,
          /@opentelemetry\/(sdk|exporter|resources)/,
          // CEL loads with the first condition, pino with the first line logged at its level.
          /@marcbachmann\/cel-js/,
          /node_modules\/pino\//,
          // The rich renderer and its tables load for --output rich; tables load string-width
          // only for text that is not printable ASCII.
          /node_modules\/string-width/,
          /\/cli\/commands\/ensembles\/richResult\.(ts|js)$/,
          // No other store backend than the one used (SQLite).
          /\/stores\/(memory|jsonFile|jsonLines)\.(ts|js)$/,
          // No profile loader or schemas without an LLM agent or a colloquy.yaml.
          /\/models\/(projectConfig|profiles|profile)\.(ts|js)$/,
          /\/ensembles\/llmorc\/(profiles|agentProfiles)\.(ts|js)$/,
          // Primitives' code loads when a script names one.
          /\/ensembles\/primitives\/(registry|readFile|writeFile|jsonExtract)\.(ts|js)$/,
        ]),
      ).toEqual([]);
    }
  });

  it('invoke loads CEL when an ensemble has a condition, and validates it at load time', () => {
    const ok = `script: echo '{"success":true,"data":{}}'`;
    writeFileSync(
      path.join(dir, 'cond.yaml'),
      `name: cond\nagents:\n  - name: a\n    ${ok}\n  - name: b\n    ${ok}\n    depends_on:\n      - agent_name: a\n        condition: "turn < 5"\n`,
    );
    const { urls, stdout } = importsOf(['invoke', './cond.yaml', '--output', 'json'], 'cond');
    expect(stdout).toMatch(/"completion_reason": "completed"/);
    expect(urls.some((url) => /@marcbachmann\/cel-js/.test(url))).toBe(true);
    writeFileSync(
      path.join(dir, 'badcond.yaml'),
      `name: bad\nagents:\n  - name: a\n    ${ok}\n  - name: b\n    ${ok}\n    depends_on:\n      - agent_name: a\n        condition: "turn <"\n`,
    );
    const bad = spawnSync(process.execPath, [BIN, 'invoke', './badcond.yaml'], {
      cwd: dir,
      env: { ...process.env, COLLOQUY_DB: path.join(dir, 'none.db') },
      encoding: 'utf8',
    });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/badcond\.yaml:9:\d+.*condition/);
  });

  it('demo loads no file-search engine, memory recall, CEL, pino or string-width', () => {
    const { urls, stdout } = importsOf(['demo', '--no-progress'], 'demo');
    expect(stdout).toMatch(/Usage/);
    expect(urls.some((url) => /\/agency\/agent\.(ts|js)$/.test(url))).toBe(true);
    expect(
      loadedOf(urls, [
        // An Agent without filesFolder: the index, scanner and manifest code load on first search.
        /node_modules\/minisearch/,
        /node_modules\/ignore\//,
        /node_modules\/write-file-atomic/,
        /\/files\/(chunks|indexFile|openaiManifest|pdfText)\.(ts|js)$/,
        // An Agency without memory: recall, compaction and the working-memory tool load on use.
        /\/memory\/(recall|compaction|working)\.(ts|js)$/,
        /@marcbachmann\/cel-js/,
        /node_modules\/pino\//,
        /node_modules\/string-width/,
      ]),
    ).toEqual([]);
  }, 60_000);

  it('importing colloquy changes nothing in the SDK; an Agency loads the OpenAI provider only when an agent first names a model', () => {
    const log = path.join(dir, 'root.log');
    const entry = fileURLToPath(new URL('../../src/index.ts', import.meta.url));
    const script = [
      `const { Agency, Agent, MemoryStore } = await import(${JSON.stringify(entry)});`,
      "const { appendFileSync } = await import('node:fs');",
      `appendFileSync(${JSON.stringify(log)}, 'MARK\\n');`,
      "const agent = new Agent({ name: 'A', instructions: 'x' });",
      'const agency = new Agency({ entryPoints: [agent], store: new MemoryStore() });',
      "const model = await agency.runner.config.modelProvider.getModel('gpt-4.1-mini');",
      'console.log(model.constructor.name);',
      // Importing colloquy left the SDK's own default provider unset.
      "const { Runner } = await import('@openai/agents-core');",
      "await Promise.resolve().then(() => new Runner().config.modelProvider.getModel('gpt-4.1-mini')).then(",
      "  () => console.log('SDK default: set'),",
      "  (error) => console.log('SDK default: ' + error.message),",
      ');',
    ].join('\n');
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx/esm', '--import', HOOKS, '--input-type=module', '-e', script],
      {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        env: { ...process.env, COLLOQUY_IMPORT_LOG: log, OPENAI_API_KEY: 'sk-test-offline' },
        encoding: 'utf8',
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/OpenAI\w*Model/);
    expect(run.stdout).toMatch(/SDK default: No default model provider set/);
    const [before, after] = readFileSync(log, 'utf8').split('MARK\n');
    expect(before).toMatch(/@openai\/agents-core/);
    expect(before).not.toMatch(/@openai\/agents-openai/);
    expect(after).toMatch(/@openai\/agents-openai/);
  });

  it('serve without --auth jwt does not load jose (JWT verification loads only when asked for)', async () => {
    const log = path.join(dir, 'serve.log');
    const child = spawn(process.execPath, ['--import', HOOKS, BIN, 'serve', '--port', '0'], {
      cwd: dir,
      env: { ...process.env, COLLOQUY_IMPORT_LOG: log, COLLOQUY_DB: path.join(dir, 'serve.db') },
    });
    const exited = once(child, 'exit');
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      await vi.waitFor(() => expect(stdout).toMatch(/127\.0\.0\.1:\d+/), { timeout: 30_000 });
    } finally {
      // Waited for: the server closes its SQLite files as it exits, which would race the
      // temp dir's removal.
      child.kill('SIGTERM');
      await exited;
    }
    const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    expect(urls.some((url) => url.includes('/server/serve.'))).toBe(true);
    expect(urls.filter((url) => /node_modules\/jose\//.test(url))).toEqual([]);
  }, 40_000);

  it('finds the command word after global options', () => {
    expect(commandWord(['node', 'colloquy', '--log-level', 'debug', 'demo', 'x'])).toBe('demo');
    expect(commandWord(['node', 'colloquy', '--help'])).toBeUndefined();
  });
});
