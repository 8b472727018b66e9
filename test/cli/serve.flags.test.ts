import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../server/rawRequest.js';

const serverTests = fileURLToPath(new URL('../server', import.meta.url));

describe('colloquy serve --cors / --allowed-host', () => {
  it('passes the flags to the server: the CORS origin and the extra Host are served', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(serverTests, 'fixtures', 'serveCli.ts'), 'serve', '--port', '0']
        .concat(['--config', path.join(serverTests, 'fixtures', 'project', 'colloquy.yaml')])
        .concat(['--cors', 'http://app.example', '--allowed-host', 'box.internal']),
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, COLLOQUY_API_KEY: '' } },
    );
    try {
      let stdout = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          stdout += chunk;
          const match = /listening on (http:\/\/\S+)/.exec(stdout);
          if (match && stdout.includes('try:')) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });
      const port = new URL(url).port;
      const cors = await rawRequest(url, '/agencies', {
        headers: { origin: 'http://app.example' },
      });
      expect(cors.status).toBe(200);
      expect(cors.headers['access-control-allow-origin']).toBe('http://app.example');
      const other = await rawRequest(url, '/agencies', {
        headers: { origin: 'http://evil.example' },
      });
      expect(other.status).toBe(403);
      const host = await rawRequest(url, '/health', { headers: { host: `box.internal:${port}` } });
      expect(host.status).toBe(200);
      const foreign = await rawRequest(url, '/health', {
        headers: { host: `evil.example:${port}` },
      });
      expect(foreign.status).toBe(403);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
