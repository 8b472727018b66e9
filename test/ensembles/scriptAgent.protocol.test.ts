/**
 * One script protocol everywhere: llm-orc's scripts run the same outside a `.llm-orc/` project
 * (these ensembles live in a plain temp dir), one test per point of issue 24.
 */
import { describe, expect, it } from 'vitest';
import { runEnsemble } from '../../src/ensembles/run.js';
import { ensembleFrom, tempDir, writeScript } from './helpers.js';

/** Runs an ensemble written in a plain (non-llm-orc) directory. */
async function run(yaml: string, dir = tempDir()) {
  return runEnsemble(ensembleFrom(yaml, dir), { input: 'the task' });
}

/** A script field holding a shell command, quoted for YAML. */
const sh = (command: string) => JSON.stringify(command);

const turn = (result: Awaited<ReturnType<typeof run>>, agent: string) =>
  result.conversation_history.find((entry) => entry.agent_name === agent)!;

describe('one script protocol outside an llm-orc project', () => {
  it('a flat JSON reply (no data wrapper) is the output, not {}', async () => {
    const result = await run(
      `name: p\nagents:\n  - name: a\n    script: ${sh(`echo '{"success": true, "words": 3}'`)}\n`,
    );
    expect(result.final_state.a).toEqual({ success: true, words: 3 });
  });

  it('plain-text output is kept as text ({ response })', async () => {
    const result = await run(`name: p\nagents:\n  - name: a\n    script: echo hello world\n`);
    expect(turn(result, 'a').status).toBeUndefined();
    expect(result.final_state.a).toEqual({ response: 'hello world' });
  });

  it('a JSON array under data is kept, and fan_out runs over it', async () => {
    const dir = tempDir();
    const double = writeScript(dir, 'double.js', `reply({ doubled: msg.input * 2 });`);
    const result = await run(
      `name: p\nagents:\n  - name: chunker\n    script: ${sh(`echo '{"success": true, "data": [1, 2, 3]}'`)}\n` +
        `  - name: each\n    script: ${double}\n    depends_on: [chunker]\n    fan_out: true\n`,
      dir,
    );
    expect(result.final_state.chunker).toEqual({ success: true, data: [1, 2, 3] });
    expect(result.final_state.each).toEqual({
      results: [{ doubled: 2 }, { doubled: 4 }, { doubled: 6 }],
      total: 3,
    });
  });

  it('a fan-out instance gets llm-orc’s chunk_index, total_chunks and base_input', async () => {
    const dir = tempDir();
    const echo = writeScript(
      dir,
      'chunk.js',
      `reply({ item: msg.input, i: msg.chunk_index, n: msg.total_chunks, base: msg.base_input });`,
    );
    const result = await run(
      `name: p\nagents:\n  - name: split\n    script: ${sh(`echo '{"items": ["x", "y"]}'`)}\n` +
        `  - name: each\n    script: ${echo}\n    depends_on: [split]\n    fan_out: true\n`,
      dir,
    );
    expect(result.final_state.each).toMatchObject({
      results: [
        { item: 'x', i: 0, n: 2, base: 'the task' },
        { item: 'y', i: 1, n: 2, base: 'the task' },
      ],
    });
  });

  it('parameters are on stdin, for first-level and dependent scripts', async () => {
    const dir = tempDir();
    const echo = writeScript(dir, 'params.js', `reply({ parameters: msg.parameters });`);
    const result = await run(
      `name: p\nagents:\n  - name: a\n    script: ${echo}\n    parameters: { k: 1 }\n` +
        `  - name: b\n    script: ${echo}\n    parameters: { k: 2 }\n    depends_on: [a]\n`,
      dir,
    );
    expect(result.final_state.a).toEqual({ parameters: { k: 1 } });
    expect(result.final_state.b).toEqual({ parameters: { k: 2 } });
  });

  it('INPUT_DATA, INPUT_TEXT and AGENT_PARAMETERS are in the environment', async () => {
    const dir = tempDir();
    const env = writeScript(
      dir,
      'env.js',
      `reply({ data: process.env.INPUT_DATA, text: process.env.INPUT_TEXT, params: process.env.AGENT_PARAMETERS });`,
    );
    const result = await run(
      `name: p\nagents:\n  - name: a\n    script: ${env}\n    parameters: { mode: fast }\n`,
      dir,
    );
    expect(result.final_state.a).toEqual({
      data: 'the task',
      text: 'the task',
      params: '{"mode":"fast"}',
    });
  });

  it('a script string that is not a path runs as inline shell', async () => {
    const result = await run(
      `name: p\nagents:\n  - name: a\n    script: |\n      words=$(echo "$INPUT_TEXT" | wc -w)\n      echo "{\\"words\\": $words}"\n`,
    );
    expect(result.final_state.a).toEqual({ words: 2 });
  });

  it('when: on an array output runs the agent when the array has items, skips it when empty', async () => {
    const result = await run(
      `name: p\nagents:\n` +
        `  - name: full\n    script: ${sh(`echo '{"success": true, "data": ["a"]}'`)}\n` +
        `  - name: empty\n    script: ${sh(`echo '{"items": []}'`)}\n` +
        `  - name: on_full\n    script: echo ran\n    depends_on: [full]\n    when: \${full.data}\n` +
        `  - name: on_first\n    script: echo ran\n    depends_on: [full]\n    when: \${full.data.0} == "a"\n` +
        `  - name: on_empty\n    script: echo ran\n    depends_on: [empty]\n    when: \${empty.items}\n`,
    );
    expect(turn(result, 'on_full').status).toBeUndefined();
    expect(turn(result, 'on_first').status).toBeUndefined();
    expect(turn(result, 'on_empty').status).toBe('skipped');
  });

  it('output is never turned into {}: an empty reply is kept as text, a failure shows what was printed', async () => {
    const result = await run(
      `name: p\nagents:\n  - name: quiet\n    script: 'true'\n` +
        `  - name: bad\n    script: ${sh(`echo '{"success": false, "error": "no rows"}'`)}\n` +
        `  - name: crash\n    script: ${sh(`echo 'half a reply'; exit 2`)}\n`,
    );
    expect(result.final_state.quiet).toEqual({ response: '' });
    expect(turn(result, 'bad').output_data).toEqual({ success: false, error: 'no rows' });
    expect(turn(result, 'bad').error).toMatch(/no rows\. It printed: .*no rows/);
    expect(turn(result, 'crash').error).toMatch(/exited with code 2; it printed: "half a reply"/);
  });

  it('Colloquy’s envelope still unwraps: { success: true, data: {...} } outputs data', async () => {
    const result = await run(
      `name: p\nagents:\n  - name: a\n    script: ${sh(`echo '{"success": true, "data": {"ok": true}}'`)}\n`,
    );
    expect(result.final_state.a).toEqual({ ok: true });
  });
});
