// Builds Colloquy Studio into dist/studio/, served by `colloquy serve` at / and /studio.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/studio/',
  plugins: [react()],
  // The studio calls the server through the public client, built from source with the page.
  resolve: {
    alias: { 'colloquy/client': fileURLToPath(new URL('../src/client.ts', import.meta.url)) },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/studio', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
  },
  logLevel: 'warn',
});
