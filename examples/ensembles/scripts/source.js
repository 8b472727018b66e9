#!/usr/bin/env node
// The DAG's root: turns the task into the text the branches analyse.
let raw = '';
process.stdin.on('data', (chunk) => (raw += chunk));
process.stdin.on('end', () => {
  const { input } = JSON.parse(raw);
  const text =
    input || 'Colloquy runs ensembles.\nAgents converse in turns.\nEverything is checkpointed.';
  process.stdout.write(JSON.stringify({ success: true, data: { text } }));
});
