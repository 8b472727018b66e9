/**
 * Scripted answers for demo agencies on the OpenAI-compatible (Chat Completions) wire. An agent
 * with a `send_message` tool messages each recipient its tool allows in turn (at most two), then
 * reports what they said; an agent without one answers with a haiku about what it was asked.
 */
import { chatLastUserText } from './openaiChat.js';
import type { WireReply } from './wireServer.js';

interface ChatTool {
  function: { name: string; parameters?: { properties?: { recipient?: { enum?: string[] } } } };
}

/** Chooses the reply for one Chat Completions request of the demo. */
export function demoResponder(body: Record<string, any>): WireReply {
  const tools = (body.tools as ChatTool[] | undefined) ?? [];
  const messages = body.messages as Array<{ role: string; content: unknown }>;
  const lastUser = messages.map((message) => message.role).lastIndexOf('user');
  const answers = messages.slice(lastUser + 1).filter((message) => message.role === 'tool');
  const request = chatLastUserText(body) || 'the sea';
  const sendMessage = tools.find((tool) => tool.function.name === 'send_message');
  if (sendMessage) {
    const recipients = sendMessage.function.parameters?.properties?.recipient?.enum ?? ['Writer'];
    const next = recipients[answers.length];
    if (next !== undefined && answers.length < 2) {
      return {
        tools: [
          {
            name: 'send_message',
            args: { recipient: next, message: `Write a haiku about ${request}` },
          },
        ],
      };
    }
    return {
      text: answers
        .map((answer, i) => `${recipients[i] ?? 'Agent'} answered:\n${String(answer.content)}`)
        .join('\n'),
    };
  }
  const topic = /about (.+?)\.?$/.exec(request)?.[1] ?? 'silence';
  return { text: `Quiet ${topic} waits,\nloopback packets come and go,\nreplies without end.` };
}
