/** The studio's shell: navigation, the agency and chat pickers, and the current view. */
import { useEffect, useRef } from 'react';
import { AuthDialog } from './components/AuthDialog';
import { ChatList } from './components/ChatList';
import { Failure, Loading } from './components/States';
import { formatHash } from './lib/hash';
import { VIEWS, useRoute, type View } from './lib/route';
import type { AgencyListEntry } from './lib/types';
import { useApi } from './lib/useApi';
import { AgenciesView } from './views/AgenciesView';
import { ChatView } from './views/ChatView';
import { CompareView } from './views/CompareView';
import { EnsemblesView } from './views/EnsemblesView';
import { EvalsView } from './views/EvalsView';
import { NetworkView } from './views/NetworkView';
import { ThreadsView } from './views/ThreadsView';
import { TimeTravelView } from './views/TimeTravelView';
import { TracesView } from './views/TracesView';

const TITLES: Record<View, string> = {
  agencies: 'Agencies',
  chat: 'Chat',
  threads: 'Threads',
  time: 'Time travel',
  compare: 'What if?',
  traces: 'Traces',
  network: 'Network',
  ensembles: 'Ensembles',
  evals: 'Evals',
};

export function App() {
  const [route, go] = useRoute();
  const agencies = useApi<{ agencies: AgencyListEntry[] }>('/agencies');
  const agencyName = route.params.agency ?? agencies.data?.agencies[0]?.name;
  const agency = agencies.data?.agencies.find((a) => a.name === agencyName);
  const chatId = route.params.chat;
  const mainRef = useRef<HTMLElement>(null);
  // Each view starts at its top: the scroll position of the last one does not carry over.
  useEffect(() => {
    mainRef.current?.scrollTo({ top: 0 });
  }, [route.view, chatId]);
  useEffect(() => {
    document.title = `${TITLES[route.view]} · Colloquy Studio`;
  }, [route.view]);

  const to = (view: View, params: Record<string, string | undefined> = {}) => {
    const merged: Record<string, string> = {};
    for (const [key, value] of Object.entries({ ...route.params, ...params }))
      if (value !== undefined) merged[key] = value;
    go({ view, params: merged });
  };

  let main;
  if (agencies.error) main = <Failure error={agencies.error} retry={agencies.reload} />;
  else if (!agencies.data) main = <Loading what="agencies" />;
  else if (route.view === 'agencies')
    main = <AgenciesView agency={agency?.name} onChat={() => to('chat', { chat: undefined })} />;
  else if (route.view === 'chat')
    main = <ChatView agency={agency} chatId={chatId} onChatId={(id) => to('chat', { chat: id })} />;
  else if (route.view === 'threads') main = <ThreadsView chatId={chatId} />;
  else if (route.view === 'time')
    main = <TimeTravelView chatId={chatId} onOpenChat={(id) => to('chat', { chat: id })} />;
  else if (route.view === 'compare')
    main = (
      <CompareView
        agency={agency?.name}
        chatId={chatId}
        at={route.params.at}
        onAt={(at) => to('compare', { at })}
        onOpenChat={(id) => to('chat', { chat: id, at: undefined })}
      />
    );
  else if (route.view === 'traces') main = <TracesView chatId={chatId} />;
  else if (route.view === 'network') main = <NetworkView agency={agency?.name} />;
  else if (route.view === 'evals')
    main = (
      <EvalsView
        runId={route.params.run}
        onSelect={(run) => to('evals', { run })}
        traceHref={(chat) =>
          formatHash({ view: 'traces', params: { ...route.params, run: '', chat } })
        }
      />
    );
  else
    main = (
      <EnsemblesView
        name={route.params.ensemble}
        onSelect={(name) => to('ensembles', { ensemble: name })}
      />
    );

  return (
    <div className="app">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Colloquy Studio</span>
        <nav aria-label="Views" className="tabs">
          {VIEWS.map((view) => (
            <a
              key={view}
              href={`#/${view}?${new URLSearchParams(route.params).toString()}`}
              aria-current={route.view === view ? 'page' : undefined}
            >
              {TITLES[view]}
            </a>
          ))}
        </nav>
      </header>
      <aside className="sidebar" aria-label="Agency and chat">
        <label>
          Agency
          <select
            value={agency?.name ?? ''}
            onChange={(event) => to(route.view, { agency: event.target.value, chat: undefined })}
            name="agency"
          >
            {(agencies.data?.agencies ?? []).map((a) => (
              <option key={a.name} value={a.name}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        {agencies.data && agencies.data.agencies.length === 0 ? (
          <p className="muted small">
            No agencies served. Start the server with an agencies module.
          </p>
        ) : null}
        <div className="chat-list">
          <div className="row spread">
            <h2>Chats</h2>
            <button type="button" onClick={() => to('chat', { chat: undefined })}>
              New
            </button>
          </div>
          {agency ? (
            <ChatList
              agency={agency.name}
              agents={agency.agents}
              chatId={chatId}
              refresh={`${chatId}|${route.view}`}
              onOpen={(id) =>
                to(route.view === 'agencies' || route.view === 'ensembles' ? 'chat' : route.view, {
                  chat: id,
                })
              }
              onDeleted={(id) => id === chatId && to(route.view, { chat: undefined })}
            />
          ) : null}
        </div>
      </aside>
      <main id="main" className="main" tabIndex={-1} ref={mainRef}>
        {main}
      </main>
      <AuthDialog />
    </div>
  );
}
