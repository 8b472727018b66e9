// The AI SDK's useChat (ai v6, @ai-sdk/react) talking to a Colloquy agency directly.
// Serve it first: colloquy serve --config examples/frontends/colloquy.yaml --cors http://localhost:5173
// Mount it with: createRoot(document.getElementById('root')).render(<Chat />);
// (test/frontends/pages.browser.test.ts bundles this file and drives it in Chromium.)
'use client';
import { useChat } from '@ai-sdk/react';
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
} from 'ai';
import { useMemo, useState } from 'react';

const DEFAULT_API = 'http://127.0.0.1:8787/agencies/frontdesk/ui-messages';

// Client tools the agency's entry point may call; the page runs them in onToolCall.
const PAGE_TOOLS = [
  {
    name: 'set_theme',
    description: 'Sets the page theme.',
    parameters: { type: 'object', properties: { theme: { enum: ['dark', 'light'] } } },
  },
];

export function Chat({ api = DEFAULT_API }) {
  const transport = useMemo(
    () => new DefaultChatTransport({ api, body: { tools: PAGE_TOOLS } }),
    [api],
  );
  const [input, setInput] = useState('');
  const { messages, sendMessage, addToolOutput, addToolApprovalResponse, status } = useChat({
    transport,
    // Continue the run once every approval is answered, or the page ran its tool.
    sendAutomaticallyWhen: (options) =>
      lastAssistantMessageIsCompleteWithApprovalResponses(options) ||
      lastAssistantMessageIsCompleteWithToolCalls(options),
    onToolCall: async ({ toolCall }) => {
      if (toolCall.toolName !== 'set_theme') return;
      const { theme } = toolCall.input;
      document.body.dataset.theme = theme;
      void addToolOutput({
        tool: 'set_theme',
        toolCallId: toolCall.toolCallId,
        output: `theme is ${theme}`,
      });
    },
  });
  return (
    <main className="chat">
      <h1>frontdesk · useChat</h1>
      {messages.map((message) => (
        <section key={message.id} className={`message ${message.role}`} data-role={message.role}>
          <b>{message.role}</b>
          {message.parts.map((part, i) => (
            <Part key={i} part={part} onApprove={addToolApprovalResponse} />
          ))}
        </section>
      ))}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (input.trim() === '') return;
          void sendMessage({ text: input });
          setInput('');
        }}
      >
        <input
          aria-label="Message"
          value={input}
          placeholder="Ask the desk…"
          onChange={(e) => setInput(e.target.value)}
        />
        <button type="submit" disabled={status === 'streaming' || status === 'submitted'}>
          Send
        </button>
      </form>
    </main>
  );
}

function Part({ part, onApprove }) {
  if (part.type === 'text') return <p className="text">{part.text}</p>;
  // Each nested agent run: who asked whom, and how it went.
  if (part.type === 'data-agent-run') {
    const run = part.data;
    return <div className="step">{`${run.caller} → ${run.agent}: ${run.status}`}</div>;
  }
  if (part.type !== 'dynamic-tool') return null;
  if (part.state === 'approval-requested') {
    return (
      <div className="approval">
        {part.toolName} {JSON.stringify(part.input)}?{' '}
        <button onClick={() => onApprove({ id: part.approval.id, approved: true })}>Approve</button>
        <button onClick={() => onApprove({ id: part.approval.id, approved: false })}>Reject</button>
      </div>
    );
  }
  const done = part.state === 'output-available' ? ' ✓' : '';
  return (
    <div className="tool">{`${part.toolName}(${JSON.stringify(part.input ?? {})})${done}`}</div>
  );
}
