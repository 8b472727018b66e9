// CopilotKit (React) in front of a Colloquy agency over AG-UI. Copy into a Next.js app that has
// @copilotkit/react-core, @copilotkit/react-ui, @copilotkit/runtime and @ag-ui/client installed.
// Serve the agency first: colloquy serve --config examples/frontends/colloquy.yaml --cors http://localhost:3000

// app/api/copilotkit/route.js — the CopilotKit runtime, with the agency as an AG-UI agent.
import { HttpAgent } from '@ag-ui/client';
import {
  CopilotRuntime,
  ExperimentalEmptyAdapter,
  copilotRuntimeNextJSAppRouterEndpoint,
} from '@copilotkit/runtime';

const runtime = new CopilotRuntime({
  agents: {
    frontdesk: new HttpAgent({ url: 'http://127.0.0.1:8787/agencies/frontdesk/ag-ui' }),
  },
});

export const POST = (req) =>
  copilotRuntimeNextJSAppRouterEndpoint({
    runtime,
    serviceAdapter: new ExperimentalEmptyAdapter(),
    endpoint: '/api/copilotkit',
  }).handleRequest(req);

// app/page.jsx — the chat, with the page's own tool (set_theme: a client tool the browser runs).
// 'use client';
// import { CopilotKit, useCopilotAction } from '@copilotkit/react-core';
// import { CopilotChat } from '@copilotkit/react-ui';
//
// function Theme() {
//   useCopilotAction({
//     name: 'set_theme',
//     description: 'Sets the page theme.',
//     parameters: [{ name: 'theme', type: 'string', enum: ['dark', 'light'] }],
//     handler: ({ theme }) => { document.body.dataset.theme = theme; return `theme is ${theme}`; },
//   });
//   return null;
// }
//
// export default function Page() {
//   return (
//     <CopilotKit runtimeUrl="/api/copilotkit" agent="frontdesk">
//       <Theme />
//       <CopilotChat />
//     </CopilotKit>
//   );
// }
