import { writeProject, startWorker, postJson } from '/work/wt/scale/test/queue/cluster.ts';
import { queuedRegistry } from '/work/wt/scale/src/cli/commands/worker.ts';
import { queuedExecutor } from '/work/wt/scale/src/queue/queuedExecutor.ts';
import { startServer } from '/work/wt/scale/src/server/serve.ts';
import pLimit from 'p-limit';
process.on('unhandledRejection', (e: any) => { console.log('UNHANDLED', e?.stack ?? e); });
const [R, P] = process.argv.slice(2);
const project = writeProject();
process.chdir(project);
const pre = 'dbg' + Date.now();
const { registry } = await queuedRegistry({ store: P, demo: false });
const executor = queuedExecutor(registry, { queue: R, prefix: pre });
const s = await startServer({ port: 0, registry, executor, handleSignals: false });
const ws = await Promise.all([0, 1, 2].map(() => startWorker(project, R, P, pre)));
const t = Date.now();
const limit = pLimit(24);
let ok = 0, bad = 0;
await Promise.all(Array.from({ length: 200 }, (_, i) => limit(async () => {
  try {
    const r = await postJson(`${s.url}/agencies/${i % 3 ? 'echo' : 'team'}/responses`, { message: 'hi ' + i, chatId: pre + '-' + i });
    if (r.status === 200) ok++; else { bad++; console.log(r.status, JSON.stringify(r.body).slice(0, 200)); }
  } catch (e: any) { bad++; console.log('ERR', e.message, e.cause?.message, Date.now() - t); }
})));
console.log({ ok, bad, ms: Date.now() - t });
ws.forEach((w) => w.process.kill());
process.exit(0);
