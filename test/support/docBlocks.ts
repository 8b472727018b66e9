/**
 * TypeScript code blocks of a Markdown file, for the docs compile test. An HTML comment right
 * before a block changes how it is compiled:
 * - `<!-- context: DECLARATIONS -->` compiles the block after those (hidden) declarations, for a
 *   fragment that continues an earlier block (`declare const agency: Agency;`);
 * - `<!-- not compiled: REASON -->` leaves it out (a shape, not a program); the reason is required.
 */

/** One fenced `ts`/`typescript` block and where it starts. */
export interface CodeBlock {
  /** The Markdown file, relative to the repository root. */
  file: string;
  /** The 0-based line of the block's first code line in that file. */
  line: number;
  /** The hidden declarations the block is compiled after (may be empty). */
  context: string;
  code: string;
}

const FENCE = /^```(ts|typescript|tsx)\s*$/;

/** The HTML comment that ends just above line `index`, or ''. */
function commentAbove(lines: readonly string[], index: number): string {
  let end = index - 1;
  while (end >= 0 && lines[end]!.trim() === '') end--;
  if (end < 0 || !lines[end]!.trim().endsWith('-->')) return '';
  let start = end;
  while (start > 0 && !lines[start]!.includes('<!--')) start--;
  return lines
    .slice(start, end + 1)
    .join('\n')
    .trim();
}

/** The compiled blocks of one Markdown file. */
export function extractTypeScriptBlocks(file: string, markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (!FENCE.test(lines[index]!.trim())) continue;
    const start = index + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    const comment = commentAbove(lines, index);
    const code = lines.slice(start, end).join('\n');
    index = end;
    if (/^<!--\s*not compiled:\s*\S[\s\S]*-->$/.test(comment)) continue;
    const context = /^<!--\s*context:([\s\S]*)-->$/.exec(comment)?.[1]?.trim() ?? '';
    blocks.push({ file, line: start, context, code });
  }
  return blocks;
}
