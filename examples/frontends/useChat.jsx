// The AI SDK's useChat (ai v6, @ai-sdk/react) talking to a Colloquy agency directly.
// Serve it first: colloquy serve --config examples/frontends/colloquy.yaml --cors http://localhost:5173
'use client';
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { useState } from 'react';

const transport = new DefaultChatTransport({
  api: 'http://127.0.0.1:8787/agencies/frontdesk/ui-messages',
  // Client tools the agency's entry point may call; the page runs them in onToolCall.
  body: {
    tools: [
      {
        name: 'set_theme',
        description: 'Sets the page theme.',
        parameters: { type: 'object', properties: { theme: { enum: ['dark', 'light'] } } },
      },
    ],
  },
});

export function Chat() {
  const [input, setInput] = useState('');
  const { messages, sendMessage, addToolOutput, addToolApprovalResponse } = useChat({
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
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
    <div>
      {messages.map((message) => (
        <div key={message.id}>
          <b>{message.role}</b>
          {message.parts.map((part, i) => {
            if (part.type === 'text') return <p key={i}>{part.text}</p>;
            // Each nested agent run: who asked whom, and how it went.
            if (part.type === 'data-agent-run') {
              const run = part.data;
              return <small key={i}>{`${run.caller} → ${run.agent}: ${run.status}`}</small>;
            }
            if (part.type === 'dynamic-tool' && part.state === 'approval-requested') {
              return (
                <span key={i}>
                  {part.toolName} {JSON.stringify(part.input)}?{' '}
                  <button
                    onClick={() =>
                      addToolApprovalResponse({ id: part.approval.id, approved: true })
                    }
                  >
                    Approve
                  </button>
                  <button
                    onClick={() =>
                      addToolApprovalResponse({ id: part.approval.id, approved: false })
                    }
                  >
                    Reject
                  </button>
                </span>
              );
            }
            return null;
          })}
        </div>
      ))}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void sendMessage({ text: input });
          setInput('');
        }}
      >
        <input value={input} onChange={(e) => setInput(e.target.value)} />
      </form>
    </div>
  );
}
