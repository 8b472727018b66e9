#!/usr/bin/env node
// The sub-ensemble's only agent: counts the words of its input.
let raw = '';
process.stdin.on('data', (chunk) => (raw += chunk));
process.stdin.on('end', () => {
  const { input } = JSON.parse(raw);
  const words = String(input).split(/\W+/).filter(Boolean).length;
  process.stdout.write(JSON.stringify({ success: true, data: { words } }));
});
