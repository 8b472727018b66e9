/**
 * Time travel: a chat's checkpoints on a timeline; select one to see the chat as it was, fork
 * from it (opens the new chat) or roll back to it (after a confirmation).
 */
import { useState } from 'react';
import { Confirm } from '../components/Confirm';
import { Empty, Failure, Loading } from '../components/States';
import { api, describeError } from '../lib/api';
import type { Checkpoint } from '../lib/types';
import { useApi } from '../lib/useApi';
import { ThreadsView } from './ThreadsView';

export function TimeTravelView({
  chatId,
  onOpenChat,
}: {
  chatId: string | undefined;
  onOpenChat: (chatId: string) => void;
}) {
  const list = useApi<{ checkpoints: Checkpoint[] }>(
    chatId ? `/chats/${encodeURIComponent(chatId)}/checkpoints` : null,
  );
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [label, setLabel] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);
  if (!chatId)
    return (
      <Empty title="No chat selected.">
        Pick a chat on the left, or start one in Chat, then come back to take checkpoints.
      </Empty>
    );
  if (list.error) return <Failure error={list.error} retry={list.reload} />;
  if (!list.data) return <Loading what="checkpoints" />;
  const checkpoints = list.data.checkpoints;
  const selected = checkpoints.find((c) => c.checkpointId === selectedId);

  const take = async () => {
    try {
      const { checkpointId } = await api<{ checkpointId: string }>(
        `/chats/${encodeURIComponent(chatId)}/checkpoints`,
        {
          ...(label.trim() ? { label: label.trim() } : {}),
        },
      );
      setLabel('');
      setSelectedId(checkpointId);
      setMessage('Checkpoint recorded.');
      list.reload();
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  const fork = async () => {
    if (!selected) return;
    try {
      const { chatId: forked } = await api<{ chatId: string }>(
        `/chats/${encodeURIComponent(chatId)}/fork`,
        {
          checkpointId: selected.checkpointId,
        },
      );
      onOpenChat(forked);
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  const rollback = async () => {
    if (!selected) return;
    setConfirming(false);
    try {
      await api(`/chats/${encodeURIComponent(chatId)}/rollback`, {
        checkpointId: selected.checkpointId,
      });
      setMessage(
        `Rolled back to ${selected.label ?? selected.checkpointId}. Later items were archived.`,
      );
      setSelectedId(null);
      setRefresh((n) => n + 1);
      list.reload();
    } catch (error) {
      setMessage(describeError(error));
    }
  };

  return (
    <div className="time">
      <div className="toolbar">
        <h1>Time travel</h1>
        <span className="muted">
          chat <code>{chatId}</code>
        </span>
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            void take();
          }}
        >
          <label className="inline">
            <span className="sr-only">Checkpoint label</span>
            <input
              value={label}
              placeholder="label (optional)"
              onChange={(e) => setLabel(e.target.value)}
              name="label"
            />
          </label>
          <button type="submit" className="primary">
            Checkpoint now
          </button>
        </form>
      </div>
      {message ? (
        <div className="notice" role="status">
          {message}
        </div>
      ) : null}
      {checkpoints.length === 0 ? (
        <Empty title="No checkpoints yet.">
          Press “Checkpoint now” to record this chat as it is; later you can see it as it was, fork
          from it or roll back to it.
        </Empty>
      ) : (
        <ol className="timeline" aria-label="Checkpoints, oldest first" data-testid="timeline">
          {checkpoints.map((c, i) => (
            <li key={c.checkpointId}>
              <button
                type="button"
                aria-pressed={c.checkpointId === selectedId}
                onClick={() => setSelectedId(c.checkpointId === selectedId ? null : c.checkpointId)}
                data-testid="checkpoint"
              >
                <span className="dot" aria-hidden="true" />
                <strong>{c.label ?? `#${i + 1}`}</strong>
                <span className="muted small">{new Date(c.createdAt).toLocaleTimeString()}</span>
                <span className="muted small">
                  {Object.values(c.threads).reduce((a, b) => a + b, 0)} items
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
      {selected ? (
        <div className="toolbar">
          <strong>Viewing the chat as it was at “{selected.label ?? selected.checkpointId}”</strong>
          <button type="button" className="primary" onClick={() => void fork()}>
            Fork from here
          </button>
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            Roll back to here…
          </button>
        </div>
      ) : null}
      <ThreadsView chatId={chatId} asOf={selected} refresh={refresh} />
      {confirming && selected ? (
        <Confirm
          title="Roll back this chat?"
          confirmLabel="Roll back"
          onCancel={() => setConfirming(false)}
          onConfirm={() => void rollback()}
        >
          <p>
            Every thread of <code>{chatId}</code> goes back to checkpoint “
            {selected.label ?? selected.checkpointId}”. Later items leave the chat (they are kept in
            archive threads). Fork instead to keep both.
          </p>
        </Confirm>
      ) : null}
    </div>
  );
}
