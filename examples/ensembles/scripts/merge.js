#!/usr/bin/env node
// Joins the outputs of its dependencies into one report.
let raw = '';
process.stdin.on('data', (chunk) => (raw += chunk));
process.stdin.on('end', () => {
  const { context } = JSON.parse(raw);
  const report = Object.fromEntries(
    Object.entries(context).map(([agent, data]) => [agent, data.count ?? data]),
  );
  process.stdout.write(
    JSON.stringify({ success: true, data: { report, branches: Object.keys(context).length } }),
  );
});
