/**
 * What if? Pick a turn of a chat, change one thing (an agent's instructions or model, or the
 * user's message), run it again as a fork (`POST /chats/:chatId/replay`) and see both branches
 * side by side, agent by agent, with the differences marked.
 */
import { useEffect, useMemo, useState } from 'react';
import { Empty, Failure, Loading } from '../components/States';
import { api, describeError } from '../lib/api';
import type { AgencyGraph, ThreadItem, ThreadRecord } from '../lib/types';
import { useApi } from '../lib/useApi';
import '../styles/compare.css';

type Change = 'instructions' | 'model' | 'message';

interface Step {
  kind: string;
  text: string;
  itemId: string;
}
interface Usage {
  inputTokens: number | null;
  outputTokens: number | null;
  cost: number | null;
}
interface AgentSide {
  agent: string;
  rows: Array<{ original: Step | null; replay: Step | null; same: boolean }>;
  finalAnswer: { original: string | null; replay: string | null; same: boolean };
  usage: { original: Usage | null; replay: Usage | null };
}
/** The answer of `POST /chats/:chatId/replay` (the fields drawn here). */
interface ReplayAnswer {
  chatId: string;
  forkOf: string;
  modelCalls: { replayed: number; live: number };
  differences: unknown[];
  sideBySide: AgentSide[];
}

const KIND_LABEL: Record<string, string> = {
  input: 'got',
  message: 'said',
  tool_call: 'called',
  tool_result: 'result',
  other: 'item',
};

function textOf(item: ThreadItem['item']): string {
  const { content } = item;
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

/** The user's messages of a chat (each starts a turn), oldest first. */
function useTurns(chatId: string | undefined) {
  const [turns, setTurns] = useState<ThreadItem[] | undefined>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    if (!chatId) return;
    let stale = false;
    setTurns(undefined);
    (async () => {
      const { threads } = await api<{ threads: ThreadRecord[] }>(
        `/chats/${encodeURIComponent(chatId)}/threads`,
      );
      const users = threads.filter((t) => t.threadId.endsWith('__USER'));
      const lists = await Promise.all(
        users.map((t) =>
          api<{ items: ThreadItem[] }>(`/threads/${encodeURIComponent(t.threadId)}`),
        ),
      );
      const found = lists
        .flatMap((l) => l.items)
        .filter((entry) => entry.item.role === 'user' && entry.meta?.callerAgent === null)
        .sort((a, b) => (a.meta?.createdAt ?? '').localeCompare(b.meta?.createdAt ?? ''));
      if (!stale) setTurns(found);
    })().catch((e: unknown) => !stale && setError(e));
    return () => {
      stale = true;
    };
  }, [chatId]);
  return { turns, error };
}

function usageText(usage: Usage | null): string {
  if (!usage || usage.inputTokens === null) return 'usage unknown';
  const cost = usage.cost === null ? '' : ` · $${usage.cost.toFixed(6)}`;
  return `${usage.inputTokens} in · ${usage.outputTokens} out${cost}`;
}

function Cell({ step, side }: { step: Step | null; side: string }) {
  if (!step) return <div className="compare-cell empty-cell">—</div>;
  return (
    <div className="compare-cell" data-side={side}>
      <span className="compare-kind">{KIND_LABEL[step.kind] ?? step.kind}</span>
      <span className="compare-text">{step.text}</span>
    </div>
  );
}

function AgentComparison({ side }: { side: AgentSide }) {
  const changed = side.rows.filter((row) => !row.same).length;
  const usageSame = usageText(side.usage.original) === usageText(side.usage.replay);
  return (
    <section className="compare-agent" aria-label={`Agent ${side.agent}`} data-agent={side.agent}>
      <header>
        <h2>{side.agent}</h2>
        <span className={changed > 0 ? 'badge changed' : 'badge'}>
          {changed > 0 ? `${changed} changed` : 'same'}
        </span>
      </header>
      <div className="compare-grid" role="table" aria-label={`${side.agent}: original and what if`}>
        <div className="compare-head" role="row">
          <span role="columnheader">Original</span>
          <span role="columnheader">What if</span>
        </div>
        {side.rows.map((row, i) => (
          <div
            key={i}
            role="row"
            className={row.same ? 'compare-row' : 'compare-row diff'}
            data-diff={!row.same}
          >
            <Cell step={row.original} side="original" />
            <Cell step={row.replay} side="replay" />
          </div>
        ))}
        <div
          role="row"
          className={side.finalAnswer.same ? 'compare-row final' : 'compare-row final diff'}
          data-diff={!side.finalAnswer.same}
        >
          <div className="compare-cell">
            <span className="compare-kind">final</span>
            <span className="compare-text">{side.finalAnswer.original ?? '—'}</span>
          </div>
          <div className="compare-cell">
            <span className="compare-kind">final</span>
            <span className="compare-text">{side.finalAnswer.replay ?? '—'}</span>
          </div>
        </div>
        <div
          role="row"
          className={usageSame ? 'compare-row usage' : 'compare-row usage diff'}
          data-diff={!usageSame}
        >
          <div className="compare-cell muted small">{usageText(side.usage.original)}</div>
          <div className="compare-cell muted small">{usageText(side.usage.replay)}</div>
        </div>
      </div>
    </section>
  );
}

export function CompareView({
  agency,
  chatId,
  at,
  onAt,
  onOpenChat,
}: {
  agency: string | undefined;
  chatId: string | undefined;
  at: string | undefined;
  onAt: (itemId: string) => void;
  onOpenChat: (chatId: string) => void;
}) {
  const graph = useApi<AgencyGraph>(
    agency ? `/agencies/${encodeURIComponent(agency)}/graph` : null,
  );
  const { turns, error } = useTurns(chatId);
  const [change, setChange] = useState<Change>('instructions');
  const [agent, setAgent] = useState('');
  const [value, setValue] = useState('');
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<ReplayAnswer | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const agents = useMemo(() => graph.data?.agents ?? [], [graph.data]);
  const turn = turns?.find((entry) => entry.id === at) ?? turns?.at(-1);
  const chosen = agents.find((a) => a.name === agent) ?? agents[0];

  // Prefill the value with what is there now, so a change starts from the current text.
  useEffect(() => {
    if (change === 'message') setValue(turn ? textOf(turn.item) : '');
    else if (change === 'model') setValue(chosen?.model ?? '');
    else setValue(chosen?.instructions ?? '');
  }, [change, chosen, turn]);

  if (!chatId)
    return (
      <Empty title="No chat selected.">
        Pick a chat on the left: what if it had gone differently? Change an agent or the message and
        compare.
      </Empty>
    );
  if (error) return <Failure error={error} />;
  if (!turns || !graph.data) return <Loading what="the chat" />;
  if (turns.length === 0)
    return <Empty title="This chat has no user messages yet.">Send a message in Chat first.</Empty>;

  const run = async () => {
    if (!turn) return;
    setRunning(true);
    setMessage(null);
    setResult(null);
    try {
      const body =
        change === 'message'
          ? { at: turn.id, message: value }
          : { at: turn.id, set: { [chosen!.name]: { [change]: value } } };
      setResult(await api<ReplayAnswer>(`/chats/${encodeURIComponent(chatId)}/replay`, body));
    } catch (e) {
      setMessage(describeError(e));
    } finally {
      setRunning(false);
    }
  };

  return (
    <div className="compare">
      <div className="toolbar">
        <h1>What if?</h1>
        <span className="muted">
          chat <code>{chatId}</code>
        </span>
      </div>
      <form
        className="compare-form"
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        <label>
          Turn to run again
          <select name="turn" value={turn?.id ?? ''} onChange={(e) => onAt(e.target.value)}>
            {turns.map((entry, i) => (
              <option key={entry.id} value={entry.id}>
                {`#${i + 1} ${textOf(entry.item).slice(0, 80)}`}
              </option>
            ))}
          </select>
        </label>
        <label>
          Change
          <select
            name="change"
            value={change}
            onChange={(e) => setChange(e.target.value as Change)}
          >
            <option value="instructions">an agent’s instructions</option>
            <option value="model">an agent’s model</option>
            <option value="message">the user’s message</option>
          </select>
        </label>
        {change !== 'message' ? (
          <label>
            Agent
            <select
              name="change-agent"
              value={chosen?.name ?? ''}
              onChange={(e) => setAgent(e.target.value)}
            >
              {agents.map((a) => (
                <option key={a.name} value={a.name}>
                  {a.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="wide">
          {change === 'message'
            ? 'New message'
            : change === 'model'
              ? 'Model name'
              : 'New instructions'}
          {change === 'model' ? (
            <input name="value" value={value} onChange={(e) => setValue(e.target.value)} />
          ) : (
            <textarea
              name="value"
              rows={3}
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          )}
        </label>
        <button type="submit" className="primary" disabled={running || value.trim() === ''}>
          {running ? 'Running…' : 'Run what-if'}
        </button>
      </form>
      {message ? (
        <div className="notice" role="alert">
          {message}
        </div>
      ) : null}
      {result ? (
        <div className="compare-result" data-testid="compare-result">
          <div className="toolbar">
            <span>
              Fork <code>{result.chatId}</code>
            </span>
            <span className="pill" data-testid="replayed">
              {result.modelCalls.replayed} model call{result.modelCalls.replayed === 1 ? '' : 's'}{' '}
              replayed
            </span>
            <span className="pill live" data-testid="live">
              {result.modelCalls.live} live
            </span>
            <span className="pill diff" data-testid="differences">
              {result.differences.length} differences
            </span>
            <button type="button" onClick={() => onOpenChat(result.chatId)}>
              Open the fork
            </button>
          </div>
          <div className="compare-agents">
            {result.sideBySide.map((side) => (
              <AgentComparison key={side.agent} side={side} />
            ))}
          </div>
        </div>
      ) : null}
    </div>
  );
}
