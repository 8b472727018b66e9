/**
 * Private Redis and Postgres servers for the kill/restart fault tests: each test starts its own
 * server (never the shared test services), SIGKILLs it mid-run and restarts it on the same port
 * and data directory. Redis runs with `appendonly yes, appendfsync always` and Postgres with its
 * default `fsync=on`, the settings under which they promise durability.
 * @module
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** A server this test owns. */
export interface OwnServer {
  url: string;
  /** SIGKILLs the server (its whole process group) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it accepts connections. */
  restart(): Promise<void>;
  /** Stops it and removes its data. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not become ready within ${ms} ms`);
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

function killGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  });
}

/** Starts a private redis-server with an fsync-always append-only file. */
export async function startOwnRedis(): Promise<OwnServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-own-redis-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''].concat([
    '--appendonly',
    'yes',
    '--appendfsync',
    'always',
  ]);
  let child: ChildProcess;
  const start = async () => {
    child = spawn('redis-server', args, { stdio: 'ignore', detached: true });
    await waitFor(() => portOpen(port), `redis-server on port ${port}`);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    kill: () => killGroup(child),
    restart: start,
    stop: async () => {
      await killGroup(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The newest Postgres bin dir, or undefined. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).sort((a, b) => Number(a) - Number(b));
  const bin = versions.length ? path.join(root, versions.at(-1)!, 'bin') : undefined;
  return bin && fs.existsSync(path.join(bin, 'initdb')) ? bin : undefined;
}

/** Starts a private Postgres (fsync on); as root it runs as the `postgres` user. */
export async function startOwnPostgres(): Promise<OwnServer> {
  const bin = postgresBin();
  if (!bin) throw new Error('postgresql is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-own-pg-'));
  const asRoot = process.getuid?.() === 0;
  const as = asRoot ? ['runuser', '-u', 'postgres', '--'] : [];
  if (asRoot) {
    fs.chmodSync(dir, 0o755);
    execFileSync('chown', ['postgres', dir]);
  }
  const run = (cmd: string[]) =>
    execFileSync(cmd[0]!, cmd.slice(1), { stdio: 'pipe' }).toString().trim();
  run([
    ...as,
    path.join(bin, 'initdb'),
    '-D',
    path.join(dir, 'data'),
    '-A',
    'trust',
    '-U',
    'colloquy',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const port = await freePort();
  const url = `postgres://colloquy@127.0.0.1:${port}/postgres`;
  let child: ChildProcess;
  // Spawned directly (as the postgres user when root), so that this process reaps the postmaster:
  // a zombie would keep its pid alive and block the restart ("lock file already exists").
  const ids = asRoot
    ? { uid: Number(run(['id', '-u', 'postgres'])), gid: Number(run(['id', '-g', 'postgres'])) }
    : {};
  const start = async () => {
    const args = ['-D', path.join(dir, 'data'), '-p', String(port), '-k', dir].concat([
      '-c',
      'listen_addresses=127.0.0.1',
    ]);
    child = spawn(path.join(bin, 'postgres'), args, { stdio: 'ignore', detached: true, ...ids });
    await waitFor(async () => {
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        await client.query('select 1');
        return true;
      } finally {
        await client.end().catch(() => undefined);
      }
    }, `postgres on port ${port}`);
  };
  await start();
  return {
    url,
    kill: () => killGroup(child),
    restart: start,
    stop: async () => {
      await killGroup(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
