import { writeProject, startServer, startWorker, postJson } from '/work/wt/scale/test/queue/cluster.ts';
const [R, P] = process.argv.slice(2);
const project = writeProject();
const s = await startServer(project, R, P, 'dbg1');
const w = await startWorker(project, R, P, 'dbg1');
console.log('up', s.url);
const t = Date.now();
const r = await postJson(`${s.url}/ensembles/pipeline/runs`, { input: 'x', runId: 'dbg-' + Date.now() });
console.log(r, Date.now() - t);
for (let i = 0; i < 30; i++) {
  const st = await (await fetch(`${s.url}/runs/${r.body.runId}`)).json();
  console.log(st.status, st.turnCount);
  if (st.status !== 'running') break;
  await new Promise((x) => setTimeout(x, 300));
}
const c = await postJson(`${s.url}/agencies/team/responses`, { message: 'hi', chatId: 'dbg-chat-' + Date.now() });
console.log(c.status, JSON.stringify(c.body).slice(0, 300));
console.log(w.output().slice(-2000));
console.log(s.output().slice(-2000));
s.process.kill(); w.process.kill();
