/**
 * Instructions per floor request under callgrind: the HTTP layers alone (bench/serverTarget.ts's
 * `colloquy-floor` and `node-floor`), served and driven in one process by one keep-alive client,
 * so that a run of N requests and one of 2N differ by N requests' work and nothing else.
 *
 *   npx tsx bench/floorCallgrind.ts [--targets colloquy,node] [--scenarios rest,plain] [--n 300]
 *
 * bundles this file with esbuild (start-up then costs the same in both runs), runs each target and
 * scenario under `valgrind --tool=callgrind` with N and 2N requests, and prints the difference
 * over N. Run with `--serve TARGET SCENARIO COUNT` it is the bundled program itself.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent as HttpAgent, createServer, request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cannedResult, startColloquyFloor } from './floorServer.js';

type Scenario = 'rest' | 'plain';

const cannedOutput = String(cannedResult('x').finalOutput);

async function colloquyFloor(): Promise<{ port: number; close: () => Promise<void> }> {
  const modules = {
    ...(await import('../src/agency/agency.js')),
    ...(await import('../src/agency/agent.js')),
    ...(await import('../src/models/scriptedModel.js')),
    ...(await import('../src/server/registry.js')),
    ...(await import('../src/server/executor.js')),
    ...(await import('../src/server/serve.js')),
    ...(await import('../src/stores/memory.js')),
    ...(await import('../src/threads/threadManager.js')),
  };
  return startColloquyFloor(modules, { handleSignals: false, schedules: false });
}

function nodeFloor(): Promise<{ port: number; close: () => Promise<void> }> {
  const json = (res: import('node:http').ServerResponse, status: number, value: unknown) => {
    const text = JSON.stringify(value);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  };
  async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  }
  const server = createServer((req, res) => {
    void (async () => {
      const input = await body(req);
      if (req.url === '/agencies/bench/responses') {
        const chatId = (input.chatId as string | undefined) ?? randomUUID();
        return json(res, 200, { chatId, finalOutput: cannedOutput });
      }
      const id = `chatcmpl-${randomUUID()}`;
      return json(res, 200, {
        id,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: cannedOutput },
            finish_reason: 'stop',
          },
        ],
      });
    })();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as { port: number }).port,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

async function drive(port: number, scenario: Scenario, count: number): Promise<void> {
  const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < count; i++) {
    const chat = `bench-${i}`;
    const body = JSON.stringify(
      scenario === 'rest'
        ? { message: 'hi', chatId: chat }
        : { model: 'bench', user: chat, messages: [{ role: 'user', content: 'hi' }] },
    );
    const path = scenario === 'rest' ? '/agencies/bench/responses' : '/v1/chat/completions';
    const text = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path,
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let out = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (out += chunk));
          res.on('end', () =>
            res.statusCode === 200 ? resolve(out) : reject(new Error(`${res.statusCode} ${out}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    if (!text.includes(cannedOutput)) throw new Error(`unexpected answer ${text}`);
  }
  agent.destroy();
}

async function serve(target: string, scenario: Scenario, count: number): Promise<void> {
  new AsyncLocalStorage().enterWith({ floor: target }); // as bench/serverTarget.ts's floors
  const server = target === 'colloquy' ? await colloquyFloor() : await nodeFloor();
  await drive(server.port, scenario, count);
  process.exit(0);
}

/** Instructions of one run: in all, and without V8's optimizing compiler (its work moves between runs). */
function instructions(
  bundle: string,
  target: string,
  scenario: Scenario,
  count: number,
): { all: number; run: number } {
  const out = join(mkdtempSync(join(tmpdir(), 'floor-cg-')), 'cg.out');
  const run = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${out}`,
      process.execPath,
      bundle,
      '--serve',
      target,
      scenario,
      String(count),
    ],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) {
    throw new Error(`callgrind ${target} ${scenario} ${count}: ${run.stderr.slice(-2000)}`);
  }
  const summary = /^summary: (\d+)/m.exec(readFileSync(out, 'utf8'));
  if (!summary) throw new Error(`no summary line in ${out}`);
  const all = Number(summary[1]);
  // Turbofan compiles the hot code over the first thousands of requests, on its own schedule:
  // in a window of a few hundred requests it is about half of the instructions, so it is left out.
  const annotated = execFileSync('callgrind_annotate', ['--threshold=100', '--inclusive=no', out], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  let compiler = 0;
  for (const line of annotated.split('\n')) {
    const match = /^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(.*)$/.exec(line);
    if (match && /compiler::|Turbofan|Compil/.test(match[2]!)) {
      compiler += Number(match[1]!.replaceAll(',', ''));
    }
  }
  return { all, run: all - compiler };
}

const args = parseArgs({
  allowPositionals: true,
  options: {
    serve: { type: 'boolean' },
    targets: { type: 'string', default: 'colloquy,node' },
    scenarios: { type: 'string', default: 'rest,plain' },
    n: { type: 'string', default: '300' },
    bundle: { type: 'string' },
  },
});
if (args.values.serve) {
  const [target, scenario, count] = args.positionals;
  await serve(target!, scenario as Scenario, Number(count));
} else {
  const n = Number(args.values.n);
  const bundle = args.values.bundle ?? join(mkdtempSync(join(tmpdir(), 'floor-cg-')), 'floor.mjs');
  if (!args.values.bundle) {
    execFileSync('npx', [
      'esbuild',
      fileURLToPath(import.meta.url),
      '--bundle',
      '--platform=node',
      '--format=esm',
      `--outfile=${bundle}`,
      '--banner:js=import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);',
      '--log-level=error',
    ]);
  }
  for (const target of args.values.targets.split(',')) {
    for (const scenario of args.values.scenarios.split(',') as Scenario[]) {
      const one = instructions(bundle, target, scenario, n);
      const two = instructions(bundle, target, scenario, 2 * n);
      const per = (key: 'all' | 'run') => ((two[key] - one[key]) / n / 1e6).toFixed(3);
      console.log(
        `${target} ${scenario}: ${per('run')}M instructions a request without the optimizing compiler, ${per('all')}M in all (${n} and ${2 * n} requests)`,
      );
    }
  }
}
