/**
 * The sidebar's chat list: titled by each chat's first message, searched (text in any message,
 * and filters by agent, user and date), paged newest first (every chat is reachable with "Load
 * more"), each deletable after a confirmation. It scrolls on its own so that the page does not
 * grow with the number of chats.
 */
import { useEffect, useState } from 'react';
import { api, apiDelete, describeError } from '../lib/api';
import type { ChatSummary } from '../lib/types';
import { ChatFilters, filterParams, NO_FILTERS, type Filters } from './ChatFilters';
import { Confirm } from './Confirm';

const PAGE = 30;

interface Page {
  chats: ChatSummary[];
  nextCursor: string | null;
}

export function ChatList({
  agency,
  agents,
  chatId,
  refresh,
  onOpen,
  onDeleted,
}: {
  agency: string;
  /** The agency's agents, offered by the agent filter. */
  agents: readonly string[];
  chatId: string | undefined;
  refresh: unknown;
  onOpen: (chatId: string) => void;
  onDeleted: (chatId: string) => void;
}) {
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  const [chats, setChats] = useState<ChatSummary[] | undefined>();
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  const [deleting, setDeleting] = useState<ChatSummary>();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [auth, setAuth] = useState(0);
  useEffect(() => {
    const onAuth = () => setAuth((n) => n + 1);
    window.addEventListener('colloquy:auth-changed', onAuth);
    return () => window.removeEventListener('colloquy:auth-changed', onAuth);
  }, []);
  const filtered = filterParams(filters);

  useEffect(() => {
    const timer = setTimeout(() => setSearch(query.trim()), 250);
    return () => clearTimeout(timer);
  }, [query]);

  const path = (after: string | null) =>
    `/chats?agency=${encodeURIComponent(agency)}&limit=${PAGE}` +
    (search ? `&q=${encodeURIComponent(search)}` : '') +
    filtered +
    (after ? `&cursor=${encodeURIComponent(after)}` : '');

  useEffect(() => {
    const controller = new AbortController();
    api<Page>(path(null), undefined, controller.signal).then(
      (page) => {
        setChats(page.chats);
        setCursor(page.nextCursor);
        setError(undefined);
      },
      (e: unknown) => !controller.signal.aborted && setError(describeError(e)),
    );
    return () => controller.abort();
  }, [agency, search, filtered, refresh, auth]);

  const more = async () => {
    try {
      const page = await api<Page>(path(cursor));
      setChats((all) => [...(all ?? []), ...page.chats]);
      setCursor(page.nextCursor);
    } catch (e) {
      setError(describeError(e));
    }
  };

  const remove = async (chat: ChatSummary) => {
    setDeleting(undefined);
    try {
      await apiDelete(
        `/chats/${encodeURIComponent(chat.chatId)}?agency=${encodeURIComponent(agency)}`,
      );
      setChats((all) => all?.filter((c) => c.chatId !== chat.chatId));
      onDeleted(chat.chatId);
    } catch (e) {
      setError(describeError(e));
    }
  };

  return (
    <>
      <input
        type="search"
        placeholder="Search chats…"
        aria-label="Search chats"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <ChatFilters agents={agents} value={filters} onChange={setFilters} />
      {error ? <p className="error-text small">{error}</p> : null}
      {chats && chats.length === 0 ? (
        <p className="muted small">
          {search || filtered ? 'No chat matches.' : 'No chats yet: start one in Chat.'}
        </p>
      ) : null}
      <ul className="plain list chat-scroll" data-testid="chat-list">
        {(chats ?? []).map((chat) => (
          <li key={chat.chatId} className="chat-entry">
            <button
              type="button"
              aria-pressed={chat.chatId === chatId}
              onClick={() => onOpen(chat.chatId)}
              title={chat.chatId}
              data-testid="chat-entry"
            >
              <span className="chat-title">
                {chat.title || chat.chatId.replace(/^chat_/, '').slice(0, 13)}
              </span>
              <span className="muted small">
                {chat.items} items · {new Date(chat.updatedAt).toLocaleString()}
              </span>
            </button>
            <button
              type="button"
              className="icon"
              aria-label={`Delete chat ${chat.title || chat.chatId}`}
              onClick={() => setDeleting(chat)}
            >
              ×
            </button>
          </li>
        ))}
        {cursor ? (
          <li>
            <button type="button" onClick={() => void more()} data-testid="more-chats">
              Load more
            </button>
          </li>
        ) : null}
      </ul>
      {deleting ? (
        <Confirm
          title="Delete this chat?"
          confirmLabel="Delete"
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(undefined)}
        >
          “{deleting.title || deleting.chatId}” and all its threads are deleted for good.
        </Confirm>
      ) : null}
    </>
  );
}
