import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AgentRunError,
  runScriptAgent,
  withLlmOrcDefaults,
} from '../../src/ensembles/scriptAgent.js';
import { ScriptNotFoundError } from '../../src/ensembles/scriptResolve.js';
import { tempDir } from './helpers.js';

/** A Python-free llm-orc-style script: prints stdin and the env as JSON. */
function echoScript(dir: string, name = 'echo.js'): string {
  writeFileSync(
    path.join(dir, name),
    `let raw = '';
process.stdin.on('data', (c) => (raw += c));
process.stdin.on('end', () => {
  console.log(JSON.stringify({ stdin: JSON.parse(raw), env: {
    INPUT_DATA: process.env.INPUT_DATA, INPUT_TEXT: process.env.INPUT_TEXT,
    AGENT_PARAMETERS: process.env.AGENT_PARAMETERS }, cwd: process.cwd() }));
});
`,
  );
  return name;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

describe('runScriptAgent with the llm-orc protocol', () => {
  it('keeps plain-text stdout as { response }', async () => {
    const dir = tempDir();
    const run = await runScriptAgent({
      agent: 'say',
      command: 'echo "hello world"',
      baseDir: dir,
      stdin: {},
      timeoutMs: 5000,
      protocol: 'llm-orc',
    });
    expect(run.reply).toEqual({ success: true, data: { response: 'hello world' } });
    expect(run.stdout).toBe('hello world');
  });

  it('a JSON object on stdout is the output; "success": false is a failure with its error', async () => {
    const dir = tempDir();
    const ok = await runScriptAgent({
      agent: 'j',
      command: `echo '{"words": 3}'`,
      baseDir: dir,
      stdin: {},
      timeoutMs: 5000,
      protocol: 'llm-orc',
    });
    expect(ok.reply.data).toEqual({ words: 3 });
    const error = await runScriptAgent({
      agent: 'bad',
      command: `echo '{"success": false, "error": "no input"}' ; echo oops >&2`,
      baseDir: dir,
      stdin: {},
      timeoutMs: 5000,
      protocol: 'llm-orc',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentRunError);
    expect((error as Error).message).toBe(
      'Agent "bad" failed: it reported "success": false: no input. It printed: "{\\"success\\": false, \\"error\\": \\"no input\\"}"',
    );
    expect((error as AgentRunError).stderr).toBe('oops\n');
  });

  it('a non-zero exit is a failure that carries stderr', async () => {
    const dir = tempDir();
    const error = await runScriptAgent({
      agent: 'exit',
      command: 'echo partial; echo broken >&2; exit 4',
      baseDir: dir,
      stdin: {},
      timeoutMs: 5000,
      protocol: 'llm-orc',
    }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /exited with code 4; stderr: broken; it printed: "partial"\. Fix the script so that it exits 0\./,
    );
    expect((error as AgentRunError).stderr).toBe('broken\n');
  });

  it("a script under .llm-orc/ speaks llm-orc: Colloquy stdin is converted, env is set, cwd is the caller's", async () => {
    const root = tempDir();
    const ensembles = path.join(root, '.llm-orc', 'ensembles');
    mkdirSync(path.join(root, '.llm-orc', 'scripts'), { recursive: true });
    mkdirSync(ensembles, { recursive: true });
    echoScript(path.join(root, '.llm-orc', 'scripts'));
    const first = await runScriptAgent({
      agent: 'first',
      command: 'echo.js',
      baseDir: ensembles,
      stdin: {
        input: 'the task',
        context: {},
        agent: 'first',
        config: { n: 2 },
        conversation_state: {},
      },
      timeoutMs: 5000,
    });
    // llm-orc's fields, with Colloquy's kept beside them.
    expect(first.reply.data).toEqual({
      stdin: {
        input: 'the task',
        parameters: { n: 2 },
        context: {},
        agent: 'first',
        config: { n: 2 },
        conversation_state: {},
      },
      env: { INPUT_DATA: 'the task', INPUT_TEXT: 'the task', AGENT_PARAMETERS: '{"n":2}' },
      cwd: process.cwd(),
    });
    const second = await runScriptAgent({
      agent: 'second',
      command: 'scripts/echo.js',
      baseDir: ensembles,
      stdin: {
        input: 'the task',
        context: { first: { words: 3 } },
        agent: 'second',
        config: {},
        conversation_state: {},
      },
      timeoutMs: 5000,
    });
    const llmOrcStdin = {
      agent_name: 'second',
      input_data: 'the task',
      context: {},
      dependencies: { first: { response: '{"words":3}', status: 'success' } },
    };
    expect(second.reply.data).toEqual({
      stdin: {
        ...llmOrcStdin,
        input: 'the task',
        context: { first: { words: 3 } },
        agent: 'second',
        config: {},
        conversation_state: {},
        parameters: {},
      },
      env: {
        // INPUT_DATA is llm-orc's own stdin, as llm-orc sets it.
        INPUT_DATA: JSON.stringify(llmOrcStdin),
        INPUT_TEXT: 'the task',
        AGENT_PARAMETERS: '{}',
      },
      cwd: process.cwd(),
    });
  });

  it('withLlmOrcDefaults outside a project keeps baseDir as the working directory and other stdin as given', () => {
    const dir = tempDir();
    const options = {
      agent: 'a',
      command: './a.js',
      baseDir: dir,
      stdin: { input: 'x' },
      timeoutMs: 1,
    };
    expect(withLlmOrcDefaults(options)).toEqual({ ...options, protocol: 'llm-orc' });
  });

  it('runs .sh files with bash', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'hello.sh'), 'read -r line; echo "got ${#line} chars"\n');
    const run = await runScriptAgent({
      agent: 'sh',
      command: './hello.sh',
      baseDir: dir,
      stdin: { input: 'abc' },
      timeoutMs: 5000,
      protocol: 'llm-orc',
    });
    expect(run.reply.data).toEqual({ response: 'got 15 chars' });
  });

  it('runs a bundled primitive in-process, answering interactive ones with ask', async () => {
    const dir = tempDir();
    const asked: string[] = [];
    const run = await runScriptAgent({
      agent: 'confirm',
      command: 'primitives/user-interaction/confirm_action.py',
      baseDir: dir,
      stdin: { input: 'task', parameters: { prompt: 'Go?', default: 'n' }, context: {} },
      env: { AGENT_PARAMETERS: '{"prompt":"Go?","default":"n"}' },
      timeoutMs: 5000,
      protocol: 'llm-orc',
      ask: async (prompt) => (asked.push(prompt), 'yes'),
    });
    expect(asked).toEqual(['Go? [y/N]']);
    expect(run.reply.data).toEqual({
      success: true,
      confirmed: true,
      input: 'yes',
      prompt: 'Go?',
      error: null,
    });
  });

  it('a missing ./x.js says the file does not exist and where it looked, for either protocol', async () => {
    const dir = tempDir();
    for (const protocol of ['colloquy', 'llm-orc'] as const) {
      const error = await runScriptAgent({
        agent: 'x',
        command: './x.js',
        baseDir: dir,
        stdin: {},
        timeoutMs: 5000,
        protocol,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ScriptNotFoundError);
      expect((error as Error).message).toContain(`Looked for it at: ${path.join(dir, 'x.js')}`);
      expect((error as Error).message).not.toMatch(/node:internal|fix the script so it exits 0/i);
    }
  });

  it('a setsid grandchild holding stdout open does not hold the run past the timeout', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, 'gc.pid');
    const started = Date.now();
    const error = await runScriptAgent({
      agent: 'hold',
      command: `setsid sleep 30 & echo $! > ${pidFile}; sleep 30`,
      baseDir: dir,
      stdin: {},
      timeoutMs: 700,
      protocol: 'llm-orc',
    }).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect((error as Error).message).toMatch(/did not finish within 0.7s/);
    expect(elapsed).toBeLessThan(3000);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    if (alive(grandchild)) process.kill(grandchild, 'SIGKILL');
  });

  it('a script that exits while a setsid grandchild keeps stdout open returns within the grace period', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, 'gc.pid');
    const started = Date.now();
    const run = await runScriptAgent({
      agent: 'bg',
      command: `setsid sleep 30 & echo $! > ${pidFile}; echo done`,
      baseDir: dir,
      stdin: {},
      timeoutMs: 10_000,
      protocol: 'llm-orc',
      exitGraceMs: 200,
    });
    expect(run.reply.data).toEqual({ response: 'done' });
    expect(Date.now() - started).toBeLessThan(3000);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    if (alive(grandchild)) process.kill(grandchild, 'SIGKILL');
  });
});
