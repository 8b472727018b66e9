#!/usr/bin/env node
// Reviews the analyzer's latest draft: satisfied from draft 3 on. Reads the Colloquy script-agent
// protocol on stdin ({ input, context, conversation_state }) and prints { success, data }.
let raw = '';
process.stdin.on('data', (chunk) => (raw += chunk));
process.stdin.on('end', () => {
  const { context } = JSON.parse(raw);
  const draft = Number(context.analyzer?.draft ?? 0);
  const satisfied = draft >= 3;
  const feedback = satisfied
    ? 'Clear and complete.'
    : `Draft ${draft}: add evidence for each claim.`;
  process.stderr.write(`reviewed draft ${draft}\n`);
  process.stdout.write(JSON.stringify({ success: true, data: { satisfied, draft, feedback } }));
});
