#!/usr/bin/env node
// Writes the final summary from the accumulated context of the conversation.
let raw = '';
process.stdin.on('data', (chunk) => (raw += chunk));
process.stdin.on('end', () => {
  const { input, conversation_state: state } = JSON.parse(raw);
  const analysis = state.accumulated_context.analysis ?? {};
  const review = state.accumulated_context.review ?? {};
  process.stdout.write(
    JSON.stringify({
      success: true,
      data: {
        task: input,
        final_analysis: analysis.summary ?? '',
        drafts: review.draft ?? 0,
        synthesis_complete: true,
      },
    }),
  );
});
