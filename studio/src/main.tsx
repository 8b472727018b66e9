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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
