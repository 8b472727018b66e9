/**
 * A small two-agent flow: the Coordinator's `send_message` tool runs the Writer with a nested
 * `Runner.run`, as an agency does. Used to record and replay the shipped cassette and in tracing
 * tests.
 */
import { Agent, Runner, tool } from '@openai/agents-core';
import type { Model, ModelSettings } from '@openai/agents-core';
import { z } from 'zod';

/** The models (and settings) of the two agents. */
export interface DemoFlowOptions {
  coordinator: Model;
  writer: Model;
  settings?: ModelSettings;
  runner?: Runner;
}

/** Builds the two agents; the Coordinator reaches the Writer through `send_message`. */
export function demoAgents(options: DemoFlowOptions): { coordinator: Agent; writer: Agent } {
  const runner = options.runner ?? new Runner({ tracingDisabled: true });
  const writer = new Agent({
    name: 'Writer',
    instructions: 'You write short haiku.',
    model: options.writer,
    modelSettings: options.settings,
  });
  const sendMessage = tool({
    name: 'send_message',
    description: 'Send a message to another agent and return its reply.',
    parameters: z.object({ recipient: z.string(), message: z.string() }),
    execute: async ({ recipient, message }) => {
      if (recipient !== 'Writer') return `Unknown recipient ${recipient}.`;
      const result = await runner.run(writer, message);
      return String(result.finalOutput);
    },
  });
  const coordinator = new Agent({
    name: 'Coordinator',
    instructions: 'You coordinate. Ask the Writer through send_message, then report its answer.',
    model: options.coordinator,
    modelSettings: options.settings,
    tools: [sendMessage],
  });
  return { coordinator, writer };
}

/** Runs the flow with streaming on the outer run; returns the final output. */
export async function runDemoFlow(options: DemoFlowOptions, input: string): Promise<string> {
  const runner = options.runner ?? new Runner({ tracingDisabled: true });
  const { coordinator } = demoAgents({ ...options, runner });
  const result = await runner.run(coordinator, input, { stream: true });
  for await (const _event of result) {
    // drain the stream
  }
  await result.completed;
  return String(result.finalOutput);
}
