#!/usr/bin/env node
// One branch of the DAG: counts words, characters or lines of the source text (config.mode).
let raw = '';
process.stdin.on('data', (chunk) => (raw += chunk));
process.stdin.on('end', () => {
  const { context, config } = JSON.parse(raw);
  const text = String(context.source?.text ?? '');
  const counts = {
    words: text.split(/\s+/).filter(Boolean).length,
    chars: text.length,
    lines: text.split('\n').length,
  };
  const mode = config.mode ?? 'words';
  if (!(mode in counts)) {
    process.stdout.write(
      JSON.stringify({
        success: false,
        error: `unknown mode "${mode}"; use words, chars or lines`,
      }),
    );
    return;
  }
  process.stdout.write(JSON.stringify({ success: true, data: { mode, count: counts[mode] } }));
});
