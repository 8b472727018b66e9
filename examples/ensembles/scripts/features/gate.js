#!/usr/bin/env node
// Checks the gathered fan-out results: { ok, count, part } (part: the ensemble `tally` runs).
let raw = '';
process.stdin.on('data', (chunk) => (raw += chunk));
process.stdin.on('end', () => {
  const { context } = JSON.parse(raw);
  const results = context.shout?.results ?? [];
  const ok = results.length > 0 && results.every((result) => result !== null);
  const part = ok ? 'parts/features-summary' : 'parts/features-refine';
  process.stdout.write(
    JSON.stringify({ success: true, data: { ok, count: results.length, part } }),
  );
});
