import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/style.css';
import './styles/base.css';
import './styles/shell.css';
import './styles/graph.css';
import './styles/chat.css';
import './styles/threads.css';
import './styles/traces.css';
import './styles/ensembles.css';
import './styles/phone.css'; // last: overrides for narrow screens
import { App } from './App';

// The page's script ran: index.html's fallback (for a script lost to a server restart) stays off.
(window as unknown as { colloquyStudioStarted?: boolean }).colloquyStudioStarted = true;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
