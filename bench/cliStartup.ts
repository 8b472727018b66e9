/**
 * CLI start-up and idle memory against bare Node, measured in the same run (built package:
 * bin/colloquy.js with COLLOQUY_DIST=1, so dist/ runs as in an installed copy).
 *
 * - Time: `node -e 0`, `colloquy --help`, `colloquy demo` and `colloquy invoke` of a one-script
 *   ensemble, interleaved in rounds; the ratios compare medians. Targets: invoke ≤ 3×, demo ≤ 4×.
 *   Wall time swings with the machine's load; CPU time (user + system, read with /usr/bin/time
 *   where it exists) is steadier, so both are printed.
 * - Idle RSS: `colloquy serve` (the demo agency) against a `node:http` server running four agents
 *   of the same shape on the SDK Runner, each sampled after it listens and settles. Target ≤ 1.2×.
 *
 *   Run: npm run build && npx tsx bench/cliStartup.ts [--rounds 15]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'colloquy.js');
if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(2);
}
const at = process.argv.indexOf('--rounds');
const rounds = at > 0 ? Number(process.argv[at + 1]) : 15;
const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-bench-startup-'));
const env = {
  ...process.env,
  COLLOQUY_DIST: '1',
  COLLOQUY_DB: path.join(dir, 'bench.db'),
  HOME: dir,
  XDG_CONFIG_HOME: path.join(dir, '.config'),
  OPENAI_API_KEY: '',
};

// A one-script ensemble whose script is a plain program (no second Node start inside the timing).
writeFileSync(
  path.join(dir, 'one.yaml'),
  'name: one\nagents:\n  - name: greeter\n    script: echo \'{"success":true,"data":{"hello":"world"}}\'\n',
);

// Floors: what the work itself costs without Colloquy. A one-script invoke must at least parse the
// YAML, validate it with zod, spawn the script and save the result in SQLite; an agency (demo)
// must at least import the SDK. If a target is below its floor, these rows show it.
const FLOOR_SCRIPT = `
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { parse } from 'yaml';
import { z } from 'zod';
const schema = z.object({ name: z.string(), agents: z.array(z.object({ name: z.string(), script: z.string() })) });
const ensemble = schema.parse(parse(readFileSync(process.argv[2], 'utf8')));
const child = spawn('/bin/sh', ['-c', ensemble.agents[0].script], { stdio: ['ignore', 'pipe', 'inherit'] });
let out = '';
for await (const chunk of child.stdout) out += chunk;
const db = new Database(process.env.COLLOQUY_DB);
db.exec('CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY, ensemble TEXT, result TEXT)');
db.prepare('INSERT INTO runs (ensemble, result) VALUES (?, ?)').run(ensemble.name, out);
db.close();
console.log(JSON.stringify(JSON.parse(out).data));
`;
const FLOOR = path.join(ROOT, 'bench', '.floorInvoke.mjs');
writeFileSync(FLOOR, FLOOR_SCRIPT);

const cases: Array<{ name: string; args: string[]; target?: number; env?: NodeJS.ProcessEnv }> = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'floor: yaml+zod+spawn+sqlite', args: [FLOOR, path.join(dir, 'one.yaml')] },
  {
    name: 'floor: import the SDK',
    args: ['--input-type=module', '-e', "await import('@openai/agents-core')"],
  },
  { name: 'colloquy --help', args: [BIN, '--help'] },
  { name: 'colloquy demo', args: [BIN, 'demo', '--no-progress'], target: 4 },
  { name: 'colloquy invoke (1 script)', args: [BIN, 'invoke', './one.yaml'], target: 3 },
  {
    name: 'invoke, COLLOQUY_TRACING=off',
    args: [BIN, 'invoke', './one.yaml'],
    env: { COLLOQUY_TRACING: 'off' },
  },
];

const TIME = '/usr/bin/time';
const cpuFile = path.join(dir, 'cpu.txt');
const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
const cpuTimes = new Map<string, number[]>(cases.map((c) => [c.name, []]));
for (let round = 0; round < rounds; round += 1) {
  for (const { name, args, env: extra } of cases) {
    const [command, commandArgs] = existsSync(TIME)
      ? [TIME, ['-f', '%U %S', '-o', cpuFile, process.execPath, ...args]]
      : [process.execPath, args];
    const started = process.hrtime.bigint();
    const run = spawnSync(command, commandArgs, {
      cwd: name.startsWith('floor: import') ? ROOT : dir,
      env: { ...env, ...extra },
      encoding: 'utf8',
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (run.status !== 0) throw new Error(`${name} exited with ${run.status}: ${run.stderr}`);
    times.get(name)!.push(ms);
    if (existsSync(TIME)) {
      const [user, system] = readFileSync(cpuFile, 'utf8')
        .trim()
        .split(/\s+/)
        .slice(-2)
        .map(Number);
      cpuTimes.get(name)!.push((user! + system!) * 1000);
    }
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const base = median(times.get('node -e 0')!);
const cpuBase = cpuTimes.get('node -e 0')!.length ? median(cpuTimes.get('node -e 0')!) : 0;
console.log(`CLI start-up, median of ${rounds} interleaved rounds (built package)`);
for (const { name, target } of cases) {
  const ms = median(times.get(name)!);
  const goal = target ? ` (target ≤ ${target}×)` : '';
  const cpu = cpuBase
    ? `   cpu ${median(cpuTimes.get(name)!).toFixed(0).padStart(4)} ms  ${(median(cpuTimes.get(name)!) / cpuBase).toFixed(2)}×`
    : '';
  console.log(
    `  ${name.padEnd(32)} wall ${ms.toFixed(0).padStart(5)} ms  ${(ms / base).toFixed(2)}× node${cpu}${goal}`,
  );
}

// The SDK-only server: four agents shaped like the demo's (a coordinator with three agents as
// tools), an offline model, the Runner, node:http. What an application writes without Colloquy.
const SDK_SERVER = `
import http from 'node:http';
import { Agent, Runner } from '@openai/agents-core';
import '@openai/agents-openai';
const model = {
  async getResponse() {
    return { usage: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }, responseId: 'r',
      output: [{ type: 'message', role: 'assistant', status: 'completed',
        content: [{ type: 'output_text', text: 'ok' }] }] };
  },
  async *getStreamedResponse() { throw new Error('not streamed'); },
};
const make = (name, tools = []) => new Agent({ name, instructions: 'Answer.', model, tools });
const helpers = ['Researcher', 'Writer', 'Editor'].map((name) => make(name));
const coordinator = make('Coordinator', helpers.map((a) => a.asTool({ toolName: a.name.toLowerCase(), toolDescription: a.name })));
const runner = new Runner({ tracingDisabled: true });
const server = http.createServer(async (req, res) => {
  let body = ''; for await (const chunk of req) body += chunk;
  const result = await runner.run(coordinator, JSON.parse(body || '{}').message ?? 'hi');
  res.end(JSON.stringify({ text: result.finalOutput }));
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
`;
writeFileSync(path.join(ROOT, 'bench', '.sdkServer.mjs'), SDK_SERVER);

/** Starts a server, waits for its "listening" line, lets it settle, and reads its RSS in MiB. */
async function idleRss(args: string[]): Promise<number> {
  const child: ChildProcess = spawn(process.execPath, args, { cwd: dir, env, stdio: 'pipe' });
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (/listening on/i.test(out)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // settle: lazy timers, GC
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
  } finally {
    child.kill('SIGKILL');
  }
}

const serveRss: number[] = [];
const sdkRss: number[] = [];
for (let round = 0; round < 3; round += 1) {
  serveRss.push(await idleRss([BIN, 'serve', '--port', '0']));
  sdkRss.push(await idleRss([path.join(ROOT, 'bench', '.sdkServer.mjs')]));
}
rmSync(path.join(ROOT, 'bench', '.sdkServer.mjs'));
rmSync(FLOOR);
rmSync(dir, { recursive: true, force: true });
const serve = median(serveRss);
const sdk = median(sdkRss);
console.log('Idle RSS, median of 3 starts');
console.log(`  node:http + SDK Runner        ${sdk.toFixed(0).padStart(5)} MiB`);
console.log(
  `  colloquy serve                ${serve.toFixed(0).padStart(5)} MiB  ${(serve / sdk).toFixed(2)}× (target ≤ 1.2×)`,
);
