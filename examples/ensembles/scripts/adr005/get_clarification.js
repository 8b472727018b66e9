#!/usr/bin/env node
// ADR-005's user clarification, answered offline: it answers the analyzer's question.
let raw = '';
process.stdin.on('data', (chunk) => (raw += chunk));
process.stdin.on('end', () => {
  const { context } = JSON.parse(raw);
  const question = context.llm_analyzer?.question ?? '(no question)';
  const data = { clarification_provided: true, question, answer: 'Compare Q3 with Q2, by region.' };
  process.stdout.write(JSON.stringify({ success: true, data }));
});
