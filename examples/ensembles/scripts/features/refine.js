#!/usr/bin/env node
// The loop body: adds one "!" to its input draft; done once the draft has three.
let raw = '';
process.stdin.on('data', (chunk) => (raw += chunk));
process.stdin.on('end', () => {
  const { input } = JSON.parse(raw);
  const draft = `${input}!`;
  const done = (draft.match(/!/g) ?? []).length >= 3;
  process.stdout.write(JSON.stringify({ success: true, data: { draft, done } }));
});
