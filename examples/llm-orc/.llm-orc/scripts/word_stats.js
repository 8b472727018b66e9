// A script agent speaking llm-orc's protocol: a first-level script reads
// {"input", "parameters", "context"} on stdin (parameters also in AGENT_PARAMETERS) and prints JSON.
let raw = '';
process.stdin.on('data', (chunk) => (raw += chunk));
process.stdin.on('end', () => {
  const { input, parameters } = JSON.parse(raw);
  const minLength = Number(parameters.min_length ?? 1);
  const words = String(input)
    .toLowerCase()
    .split(/[^a-z']+/)
    .filter((word) => word.length >= minLength);
  const counts = {};
  for (const word of words) counts[word] = (counts[word] ?? 0) + 1;
  const top = Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 3)
    .map(([word]) => word);
  console.log(JSON.stringify({ success: true, word_count: words.length, top_words: top }));
});
