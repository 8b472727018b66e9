/**
 * The spawn helper's program (see `spawnHelper.ts`), plain CommonJS run with `node -e` so that it
 * loads nothing else: it spawns each script detached (its own process group) with piped stdio,
 * and reports its pid, output, exit and close over the IPC channel.
 * @module
 */
export const HELPER_SOURCE = `
const { spawn } = require('node:child_process');
const children = new Map();
const post = (message) => { if (process.connected) process.send(message); };
process.on('disconnect', () => process.exit(0));
process.on('message', (m) => {
  if (m.type === 'spawn') {
    let child;
    try {
      child = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, detached: true, stdio: 'pipe', shell: false });
    } catch (error) {
      return post({ type: 'error', id: m.id, message: error.message, code: error.code });
    }
    children.set(m.id, child);
    child.on('error', (error) => {
      children.delete(m.id);
      post({ type: 'error', id: m.id, message: error.message, code: error.code });
    });
    if (child.pid !== undefined) post({ type: 'spawned', id: m.id, pid: child.pid });
    child.stdout.on('data', (data) => post({ type: 'stdout', id: m.id, data }));
    child.stderr.on('data', (data) => post({ type: 'stderr', id: m.id, data }));
    child.stdin.on('error', () => undefined);
    child.on('exit', (code, signal) => post({ type: 'exit', id: m.id, code, signal }));
    child.on('close', (code, signal) => {
      children.delete(m.id);
      post({ type: 'close', id: m.id, code, signal });
    });
  } else if (m.type === 'stdin') {
    children.get(m.id)?.stdin.end(m.data);
  } else if (m.type === 'destroy') {
    const child = children.get(m.id);
    if (child) { child.stdout.destroy(); child.stderr.destroy(); }
  }
});
`;
