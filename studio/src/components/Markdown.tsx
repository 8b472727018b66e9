/**
 * A small, safe markdown renderer: paragraphs, fenced code, bullet and numbered lists, headings,
 * inline code, **strong**, *emphasis* and [links](https://…). It builds React elements (never
 * HTML strings), so any HTML in the text shows as text; links keep only http(s) and mailto URLs.
 */
import type { ReactNode } from 'react';

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))/g;

function safeUrl(url: string): string | null {
  return /^(https?:\/\/|mailto:)/i.test(url) ? url : null;
}

/** Inline markup of one line or paragraph. */
export function inline(text: string, key = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const match of text.matchAll(INLINE)) {
    const [token] = match;
    const at = match.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const k = `${key}.${n++}`;
    if (match[1]) out.push(<code key={k}>{token.slice(1, -1)}</code>);
    else if (match[2]) out.push(<strong key={k}>{inline(token.slice(2, -2), k)}</strong>);
    else if (match[3]) out.push(<em key={k}>{inline(token.slice(1, -1), k)}</em>);
    else {
      const [, label = '', url = ''] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(token) ?? [];
      const href = safeUrl(url);
      out.push(
        href ? (
          <a key={k} href={href} target="_blank" rel="noreferrer noopener">
            {label}
          </a>
        ) : (
          token
        ),
      );
    }
    last = at + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Renders `text` as markdown blocks. */
export function Markdown({ text }: { text: string }) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: ReactNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const key = `b${i}`;
    if (/^```/.test(line)) {
      const code: string[] = [];
      for (i += 1; i < lines.length && !/^```/.test(lines[i]!); i += 1) code.push(lines[i]!);
      i += 1;
      blocks.push(
        <pre key={key} className="pre md-code">
          <code>{code.join('\n')}</code>
        </pre>,
      );
    } else if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: ReactNode[] = [];
      for (; i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i]!); i += 1)
        items.push(
          <li key={i}>{inline(lines[i]!.replace(/^\s*([-*+]|\d+[.)])\s+/, ''), `l${i}`)}</li>,
        );
      blocks.push(ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>);
    } else if (/^#{1,6}\s/.test(line)) {
      blocks.push(
        <p key={key} className="md-heading">
          <strong>{inline(line.replace(/^#+\s*/, ''), key)}</strong>
        </p>,
      );
      i += 1;
    } else if (line.trim() === '') i += 1;
    else {
      const para: string[] = [];
      for (
        ;
        i < lines.length &&
        lines[i]!.trim() !== '' &&
        !/^(```|#{1,6}\s|\s*([-*+]|\d+[.)])\s+)/.test(lines[i]!);
        i += 1
      )
        para.push(lines[i]!);
      blocks.push(<p key={key}>{inline(para.join('\n'), key)}</p>);
    }
  }
  return <div className="markdown">{blocks}</div>;
}
