#!/usr/bin/env node
// Splits the task ("apples, pears, plums") into items: { items: [...] }.
let raw = '';
process.stdin.on('data', (chunk) => (raw += chunk));
process.stdin.on('end', () => {
  const { input } = JSON.parse(raw);
  const items = String(input)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  process.stdout.write(JSON.stringify({ success: true, data: { items } }));
});
