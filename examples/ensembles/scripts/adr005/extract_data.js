#!/usr/bin/env node
// ADR-005's data extractor: a different slice of the Q3 data on each of its two runs.
let raw = '';
process.stdin.on('data', (chunk) => (raw += chunk));
process.stdin.on('end', () => {
  const { agent, conversation_state } = JSON.parse(raw);
  const run = (conversation_state.agent_execution_count[agent] ?? 0) + 1;
  const slices = [
    { region: 'EMEA', q3_sales: 120, q2_sales: 100 },
    { region: 'APAC', q3_sales: 80, q2_sales: 80 },
  ];
  process.stdout.write(JSON.stringify({ success: true, data: { run, ...slices[run - 1] } }));
});
