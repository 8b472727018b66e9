// A chat page on AG-UI's own client (@ag-ui/client's HttpAgent), no framework: the agency's
// answer, each nested agent run as a step, tool approvals as buttons (AG-UI interrupts), and the
// page's own set_theme tool run in the browser.
// Serve the agency first: colloquy serve --config examples/frontends/colloquy.yaml --cors http://localhost:5173
// Mount it with: mountAgUiChat(document.getElementById('root'));
// (test/frontends/pages.browser.test.ts bundles this file and drives it in Chromium.)
/* global document */
import { HttpAgent } from '@ag-ui/client';

const DEFAULT_URL = 'http://127.0.0.1:8787/agencies/frontdesk/ag-ui';

// Frontend tools the agency's entry point may call; the page runs them below.
const PAGE_TOOLS = [
  {
    name: 'set_theme',
    description: 'Sets the page theme.',
    parameters: { type: 'object', properties: { theme: { enum: ['dark', 'light'] } } },
  },
];

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Renders a chat with the agency at `url` into `root`. */
export function mountAgUiChat(root, { url = DEFAULT_URL, threadId = crypto.randomUUID() } = {}) {
  const agent = new HttpAgent({ url, threadId });
  const log = element('div', 'log');
  const form = element('form');
  const input = element('input');
  input.setAttribute('aria-label', 'Message');
  input.placeholder = 'Ask the desk…';
  const send = element('button', '', 'Send');
  send.type = 'submit';
  form.append(input, send);
  const main = element('main', 'chat');
  main.append(element('h1', '', 'frontdesk · AG-UI'), log, form);
  root.append(main);

  // One run of the agent, drawn as it streams: steps (nested runs), tool calls and the text.
  async function run(parameters = {}) {
    send.disabled = true;
    const reply = element('section', 'message assistant');
    reply.dataset.role = 'assistant';
    reply.append(element('b', '', 'assistant'));
    log.append(reply);
    let text = null;
    const outcome = await agent.runAgent(
      { tools: PAGE_TOOLS, ...parameters },
      {
        onEvent: ({ event }) => {
          if (event.type === 'STEP_STARTED') reply.append(element('div', 'step', event.stepName));
          if (event.type === 'TOOL_CALL_START') {
            reply.append(element('div', 'tool', `${event.toolCallName}(…)`));
          }
          if (event.type === 'TEXT_MESSAGE_CONTENT') {
            text ??= reply.appendChild(element('p', 'text', ''));
            text.textContent += event.delta;
          }
          if (event.type === 'RUN_ERROR') reply.append(element('p', 'error', event.message));
        },
      },
    );
    send.disabled = false;
    // The page's own tool: run it, add its result, and let the agent continue.
    const calls = outcome.newMessages.flatMap((m) =>
      m.role === 'assistant' ? (m.toolCalls ?? []) : [],
    );
    const mine = calls.filter((call) => call.function.name === 'set_theme');
    if (mine.length > 0 && agent.pendingInterrupts.length === 0) {
      for (const call of mine) {
        const { theme } = JSON.parse(call.function.arguments || '{}');
        document.body.dataset.theme = theme;
        agent.addMessage({
          id: crypto.randomUUID(),
          role: 'tool',
          toolCallId: call.id,
          content: `theme is ${theme}`,
        });
      }
      return run();
    }
    // Tool approvals: one button pair per interrupt; the answer resumes the run.
    for (const interrupt of agent.pendingInterrupts) {
      const box = element('div', 'approval', `${interrupt.message} `);
      const decide = (approved) => () => {
        box.remove();
        void run({
          resume: [
            approved
              ? { interruptId: interrupt.id, status: 'resolved', payload: { approved: true } }
              : { interruptId: interrupt.id, status: 'cancelled' },
          ],
        });
      };
      const yes = element('button', '', 'Approve');
      yes.onclick = decide(true);
      const no = element('button', '', 'Reject');
      no.onclick = decide(false);
      box.append(yes, no);
      reply.append(box);
    }
  }

  form.onsubmit = (e) => {
    e.preventDefault();
    const content = input.value.trim();
    if (content === '') return;
    input.value = '';
    const mine = element('section', 'message user');
    mine.dataset.role = 'user';
    mine.append(element('b', '', 'user'), element('p', 'text', content));
    log.append(mine);
    agent.addMessage({ id: crypto.randomUUID(), role: 'user', content });
    void run();
  };
  return agent;
}
