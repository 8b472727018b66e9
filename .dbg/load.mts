import { writeProject, startServer, startWorker, postJson } from '/work/wt/scale/test/queue/cluster.ts';
import pLimit from 'p-limit';
const [R, P] = process.argv.slice(2);
const project = writeProject();
const pre = 'dbg' + Date.now();
const s = await startServer(project, R, P, pre);
const ws = await Promise.all([0, 1, 2].map(() => startWorker(project, R, P, pre)));
console.log('up', s.url);
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
console.log(s.output().slice(-1500));
console.log(s.process.exitCode, s.process.signalCode);
s.process.kill(); ws.forEach((w) => w.process.kill());
