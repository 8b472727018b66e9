/** Threads: a chat's threads side by side (the user thread and every pair thread), with their ids. */
import { Fragment, useEffect, useState } from 'react';
import { ItemView } from '../components/ItemView';
import { Empty, Failure, Loading } from '../components/States';
import { api } from '../lib/api';
import { formatHash, parseHash } from '../lib/hash';
import { compareThreads, participants } from '../lib/items';
import type { Checkpoint, ThreadItem, ThreadRecord } from '../lib/types';

/** The What if? view for a turn of this chat (the current agency and chat kept). */
function whatIfHref(itemId: string): string {
  const { params } = parseHash(window.location.hash);
  return formatHash({ view: 'compare', params: { ...params, at: itemId } });
}

interface Column {
  record: ThreadRecord;
  items: ThreadItem[];
}

export function ThreadsView({
  chatId,
  asOf,
  refresh = 0,
}: {
  chatId: string | undefined;
  asOf?: Checkpoint | undefined;
  refresh?: number;
}) {
  const [columns, setColumns] = useState<Column[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!chatId) return;
    let stale = false;
    setColumns(undefined);
    setError(undefined);
    (async () => {
      const { threads } = await api<{ threads: ThreadRecord[] }>(
        `/chats/${encodeURIComponent(chatId)}/threads`,
      );
      const shown = asOf ? threads.filter((t) => asOf.threads[t.threadId] !== undefined) : threads;
      const loaded = await Promise.all(
        shown.map(async (record) => {
          const limit = asOf ? asOf.threads[record.threadId] : undefined;
          const query = limit !== undefined ? `?limit=${Math.max(limit, 1)}` : '';
          const { items } =
            limit === 0
              ? { items: [] as ThreadItem[] }
              : await api<{ items: ThreadItem[] }>(
                  `/threads/${encodeURIComponent(record.threadId)}${query}`,
                );
          return { record, items };
        }),
      );
      // The user's thread first, then pair threads by id.
      loaded.sort((a, b) => compareThreads(a.record.threadId, b.record.threadId));
      if (!stale) setColumns(loaded);
    })().catch((e: unknown) => !stale && setError(e));
    return () => {
      stale = true;
    };
  }, [chatId, asOf, refresh, tick]);
  if (!chatId)
    return <Empty title="No chat selected.">Pick a chat on the left, or start one in Chat.</Empty>;
  if (error) return <Failure error={error} retry={() => setTick((n) => n + 1)} />;
  if (!columns) return <Loading what="threads" />;
  if (columns.length === 0)
    return <Empty title="This chat has no threads yet.">Send a message in Chat first.</Empty>;
  return (
    <div className="columns" data-testid="threads">
      {columns.map(({ record, items }) => (
        <section
          key={record.threadId}
          className="column"
          aria-label={`Thread ${record.threadId}`}
          data-thread={record.threadId}
        >
          <header>
            <h2>{participants(record.threadId, chatId)}</h2>
            <code className="small">{record.threadId}</code>
            <span className="muted small">
              {items.length} of {record.version} items{asOf ? ' at this checkpoint' : ''}
            </span>
          </header>
          <ol className="items">
            {items.map((entry) => (
              <Fragment key={entry.id}>
                <ItemView entry={entry} />
                {entry.item.role === 'user' && entry.meta?.callerAgent === null ? (
                  <li className="whatif-link">
                    <a href={whatIfHref(entry.id)}>What if…</a>
                  </li>
                ) : null}
              </Fragment>
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
