/**
 * The colloquy-floor target of `bench/serverTarget.ts` (every route, validation, run log and SSE
 * as served, no agent work) driven in-process by one keep-alive client, for counts that hold
 * whatever the load: bundle it with esbuild, run it for N and 2N requests under
 * `valgrind --tool=callgrind` and subtract (start-up cancels), or read its promise count.
 *   npx esbuild bench/streamFloorCount.ts --bundle --platform=node --format=esm \
 *     --packages=external --outfile=/tmp/floor.mjs
 *   node [--expose-gc] /tmp/floor.mjs [--requests N] [--warmup W] [--plain] [--promises]
 * prints the wall time and, with `--promises`, the promises made per measured request.
 */
import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import { Agent as HttpAgent, request } from 'node:http';
import { Agency } from '../src/agency/agency.js';
import { Agent } from '../src/agency/agent.js';
import { ScriptedModel } from '../src/models/scriptedModel.js';
import { inProcessExecutor } from '../src/server/executor.js';
import { createRegistry } from '../src/server/registry.js';
import { startServer } from '../src/server/serve.js';
import { MemoryStore } from '../src/stores/memory.js';
import { ThreadManager } from '../src/threads/threadManager.js';
import { startColloquyFloor } from './floorServer.js';

const flag = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
};

// As the floor targets: promise hooks on, as in a server running the agents SDK.
new AsyncLocalStorage().enterWith({ floor: 'colloquy-floor' });
const server = await startColloquyFloor(
  {
    Agency,
    Agent,
    ScriptedModel,
    createRegistry,
    inProcessExecutor,
    startServer,
    MemoryStore,
    ThreadManager,
  },
  { handleSignals: false },
);

const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
const stream = !process.argv.includes('--plain');
let seq = 0;
function one(): Promise<string> {
  const body = JSON.stringify({
    model: 'bench',
    stream,
    user: `bench-${seq++}`,
    messages: [{ role: 'user', content: 'hi' }],
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: '/v1/chat/completions',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(text));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const check = (text: string) => {
  if (!text.includes('A got') || (stream && !text.endsWith('data: [DONE]\n\n')))
    throw new Error(`unexpected answer ${text.slice(0, 300)}`);
};
const warmup = Number(flag('warmup') ?? 300);
const requests = Number(flag('requests') ?? 200);
for (let i = 0; i < warmup; i++) check(await one());
let promises = 0;
const hook = createHook({
  init: (_id, type) => {
    if (type === 'PROMISE') promises += 1;
  },
});
if (process.argv.includes('--promises')) hook.enable();
// With --expose-gc: a full collection before and after the measured requests, so that N and 2N
// runs start from the same heap and a major collection's timing does not swing the difference.
const collect = (globalThis as { gc?: () => void }).gc;
collect?.();
const cpuBefore = process.cpuUsage();
const began = performance.now();
for (let i = 0; i < requests; i++) check(await one());
collect?.();
const wall = performance.now() - began;
const cpu = process.cpuUsage(cpuBefore);
hook.disable();
console.log(
  JSON.stringify({
    requests,
    wallMsPerRequest: +(wall / requests).toFixed(3),
    cpuMsPerRequest: +((cpu.user + cpu.system) / 1000 / requests).toFixed(3),
    ...(process.argv.includes('--promises') ? { promisesPerRequest: promises / requests } : {}),
  }),
);
agent.destroy();
await server.close();
process.exit(0);
