/** One thread item drawn by its type: message, tool call, tool result, handoff, error. */
import { Markdown } from './Markdown';
import { itemKind } from '../lib/items';
import { messageText, outputText } from '../lib/streamTree';
import type { ThreadItem } from '../lib/types';

export function ItemView({ entry }: { entry: ThreadItem }) {
  const { item, meta } = entry;
  const kind = itemKind(item);
  // In a pair thread the caller's messages have the user role: name the calling agent instead.
  const label =
    kind === 'message'
      ? item.role === 'user' && meta?.callerAgent
        ? `${meta.callerAgent} (caller)`
        : String(item.role)
      : kind === 'tool_call'
        ? `tool call · ${String(item.name)}`
        : kind === 'tool_result'
          ? 'tool result'
          : kind;
  let body: string;
  if (kind === 'message') body = messageText(item.content);
  else if (kind === 'tool_call' || kind === 'handoff')
    body = `${String(item.name)}(${String(item.arguments ?? '')})`;
  else if (kind === 'tool_result' || kind === 'error') body = outputText(item.output);
  else body = JSON.stringify(item, null, 2);
  return (
    <li
      className={`item item-${kind} item-role-${String(item.role ?? '')}`}
      data-testid="thread-item"
      data-kind={kind}
    >
      <div className="item-head">
        <span className="item-kind" data-testid="item-label">
          {label}
        </span>
        {meta ? <span className="muted small">{meta.agent}</span> : null}
        {item.callId ? <code className="small muted">{String(item.callId)}</code> : null}
      </div>
      <div className="item-body">{kind === 'message' ? <Markdown text={body} /> : body}</div>
    </li>
  );
}
