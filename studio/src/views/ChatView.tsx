/**
 * Chat: send a message to an agency and watch the tagged stream live; abort; continue a chat;
 * approve or reject pending tool calls and resume.
 */
import { Fragment, useEffect, useRef, useState } from 'react';
import { Approvals } from '../components/Approvals';
import { Markdown } from '../components/Markdown';
import { RunTree } from '../components/RunTree';
import { Empty, Failure } from '../components/States';
import { api, describeError, streamEvents } from '../lib/api';
import { isUserThread } from '../lib/items';
import { storedTrees } from '../lib/storedTree';
import { applyEvent, emptyTree, messageText, type StreamTree } from '../lib/streamTree';
import type {
  AgencyListEntry,
  AgencyResponse,
  AgencyStreamEvent,
  ThreadItem,
  ThreadRecord,
} from '../lib/types';

interface Turn {
  message: string;
  tree: StreamTree;
  aborted?: boolean;
  failure?: string;
  resumed?: AgencyResponse[];
}

function finalText(result: AgencyResponse): string {
  return typeof result.finalOutput === 'string'
    ? result.finalOutput
    : JSON.stringify(result.finalOutput, null, 2);
}

interface HistoryLine {
  role: string;
  text: string;
  agent?: string;
  /** The past turn's delegation tree, under the user's message that started it. */
  tree?: StreamTree;
}

/** The user-facing messages of a chat so far, oldest first, each user message with its turn's tree. */
async function loadHistory(chatId: string): Promise<HistoryLine[]> {
  const { threads } = await api<{ threads: ThreadRecord[] }>(
    `/chats/${encodeURIComponent(chatId)}/threads`,
  );
  const all: ThreadItem[] = [];
  const lines: Array<HistoryLine & { at: string; runId?: string }> = [];
  for (const thread of threads) {
    const { items } = await api<{ items: ThreadItem[] }>(
      `/threads/${encodeURIComponent(thread.threadId)}`,
    );
    all.push(...items);
    if (!isUserThread(thread.threadId)) continue;
    for (const { item, meta } of items) {
      if (item.type !== undefined && item.type !== 'message') continue;
      const text = messageText(item.content);
      if (text)
        lines.push({
          role: String(item.role),
          text,
          agent: meta?.agent,
          at: meta?.createdAt ?? '',
          runId: item.role === 'user' ? meta?.runId : undefined,
        });
    }
  }
  const trees = storedTrees(all);
  return lines
    .sort((a, b) => a.at.localeCompare(b.at))
    .map(({ runId, at: _at, ...line }) => {
      const tree = runId ? trees[runId] : undefined;
      return tree && tree.runs[runId!]!.entries.length > 0 ? { ...line, tree } : line;
    });
}

export function ChatView({
  agency,
  chatId,
  onChatId,
}: {
  agency: AgencyListEntry | undefined;
  chatId: string | undefined;
  onChatId: (chatId: string | undefined) => void;
}) {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [history, setHistory] = useState<HistoryLine[]>([]);
  const [historyError, setHistoryError] = useState<unknown>();
  const [draft, setDraft] = useState('');
  const [recipient, setRecipient] = useState('');
  const [busy, setBusy] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const ownChat = useRef<string | undefined>(undefined);
  const end = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);

  // A streaming answer stays in view unless the user scrolled up to read.
  useEffect(() => {
    if (pinned.current) end.current?.scrollIntoView({ block: 'end' });
  }, [turns, history]);

  useEffect(() => {
    if (chatId !== undefined && chatId === ownChat.current) return;
    ownChat.current = chatId;
    setTurns([]);
    setHistory([]);
    setHistoryError(undefined);
    if (chatId === undefined) return;
    loadHistory(chatId).then(setHistory, setHistoryError);
  }, [chatId]);

  if (!agency) return <Empty title="Pick an agency on the left to chat with it." />;

  const send = async () => {
    const message = draft.trim();
    if (!message || busy) return;
    setDraft('');
    setBusy(true);
    const abort = new AbortController();
    controller.current = abort;
    const index = turns.length;
    setTurns((all) => [...all, { message, tree: emptyTree() }]);
    const update = (change: (turn: Turn) => Turn) =>
      setTurns((all) => all.map((turn, i) => (i === index ? change(turn) : turn)));
    try {
      const res = await streamEvents<AgencyStreamEvent>(
        `/agencies/${encodeURIComponent(agency.name)}/responses/stream`,
        // Abort drops the stream; the server then cancels the call (it would run on otherwise).
        {
          message,
          ...(chatId ? { chatId } : {}),
          ...(recipient ? { recipient } : {}),
          onDisconnect: 'cancel',
        },
        (event) => update((turn) => ({ ...turn, tree: applyEvent(turn.tree, event) })),
        abort.signal,
      );
      // The server percent-encodes the chat id in this header (ids may be any text).
      const header = res.headers.get('x-colloquy-chat-id');
      const created = header === null ? null : decodeURIComponent(header);
      if (created && created !== chatId) {
        ownChat.current = created;
        onChatId(created);
      }
    } catch (error) {
      if (abort.signal.aborted) update((turn) => ({ ...turn, aborted: true }));
      else update((turn) => ({ ...turn, failure: describeError(error) }));
    } finally {
      setBusy(false);
      controller.current = null;
    }
  };

  const resume = async (index: number, state: string, approve: string[], reject: string[]) => {
    setBusy(true);
    try {
      const result = await api<AgencyResponse>(
        `/agencies/${encodeURIComponent(agency.name)}/resume`,
        {
          state,
          approve,
          reject,
        },
      );
      setTurns((all) =>
        all.map((turn, i) =>
          i === index ? { ...turn, resumed: [...(turn.resumed ?? []), result] } : turn,
        ),
      );
    } catch (error) {
      setTurns((all) =>
        all.map((turn, i) => (i === index ? { ...turn, failure: describeError(error) } : turn)),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="chat">
      <div className="toolbar">
        <h1>Chat with {agency.name}</h1>
        <span className="muted" data-testid="chat-id">
          {chatId ? (
            <>
              chat <code>{chatId}</code>
            </>
          ) : (
            'new chat'
          )}
        </span>
        <button type="button" onClick={() => onChatId(undefined)} disabled={busy}>
          New chat
        </button>
      </div>
      <div
        className="transcript"
        aria-live="polite"
        data-testid="transcript"
        onScroll={(event) => {
          const box = event.currentTarget;
          pinned.current = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
        }}
      >
        {historyError ? <Failure error={historyError} /> : null}
        {history.map((line, i) => (
          <Fragment key={`h${i}`}>
            <div className={`bubble bubble-${line.role}`} data-testid="history-message">
              <span className="who">
                {line.role === 'user' ? 'You' : (line.agent ?? 'assistant')}
              </span>
              <Markdown text={line.text} />
            </div>
            {line.tree ? (
              <details className="past-tree" data-testid="past-tree" open>
                <summary className="muted small">Who talked to whom</summary>
                <RunTree tree={line.tree} />
              </details>
            ) : null}
          </Fragment>
        ))}
        {turns.length === 0 && history.length === 0 ? (
          <Empty title="No messages yet.">
            Type a message below and press Enter to send (Shift+Enter adds a line). You will see
            each agent's run, nested under the send_message that started it, as it streams.
          </Empty>
        ) : null}
        {turns.map((turn, i) => {
          const last = turn.resumed?.[turn.resumed.length - 1] ?? turn.tree.result;
          return (
            <div key={i} className="turn" data-testid="turn">
              <div className="bubble bubble-user">
                <span className="who">You</span>
                <div>{turn.message}</div>
              </div>
              <RunTree tree={turn.tree} />
              {turn.aborted ? (
                <div className="notice">Aborted: the agency stopped this call.</div>
              ) : null}
              {turn.failure ? (
                <div className="error-text" role="alert">
                  {turn.failure}
                </div>
              ) : null}
              {turn.tree.error ? (
                <div className="error-text" role="alert">
                  {turn.tree.error.message}
                </div>
              ) : null}
              {last?.interruptions?.length && last.state ? (
                <Approvals
                  pending={last.interruptions}
                  busy={busy}
                  onResume={(approve, reject) => void resume(i, last.state!, approve, reject)}
                />
              ) : last ? (
                <div className="bubble bubble-assistant final" data-testid="final-answer">
                  <span className="who">{last.lastAgent}</span>
                  <Markdown text={finalText(last)} />
                  <span className="muted small">
                    {last.usage.totalTokens} tokens · {last.usage.requests} model calls
                  </span>
                </div>
              ) : null}
            </div>
          );
        })}
        <div ref={end} />
      </div>
      <form
        className="composer"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        {agency.entryPoints.length > 1 ? (
          <label className="inline">
            To
            <select value={recipient} onChange={(event) => setRecipient(event.target.value)}>
              <option value="">{agency.entryPoints[0]} (default)</option>
              {agency.entryPoints.slice(1).map((name) => (
                <option key={name}>{name}</option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="grow">
          <span className="sr-only">Message</span>
          <textarea
            rows={2}
            placeholder={`Message ${agency.name}…`}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              // Enter sends; Shift+Enter adds a line (and Enter while composing text in an IME does neither).
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                void send();
              }
            }}
            name="message"
          />
        </label>
        {busy && controller.current ? (
          <button type="button" className="danger" onClick={() => controller.current?.abort()}>
            Abort
          </button>
        ) : (
          <button type="submit" className="primary" disabled={busy || draft.trim() === ''}>
            Send
          </button>
        )}
      </form>
    </div>
  );
}
