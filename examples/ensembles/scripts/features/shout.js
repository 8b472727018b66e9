#!/usr/bin/env node
// One fan-out instance: gets one item as its input and answers { item, upper, index }.
let raw = '';
process.stdin.on('data', (chunk) => (raw += chunk));
process.stdin.on('end', () => {
  const { input, fan_out } = JSON.parse(raw);
  const data = { item: input, upper: String(input).toUpperCase(), index: fan_out?.index ?? null };
  process.stdout.write(JSON.stringify({ success: true, data }));
});
