import type { TracingProcessor } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import {
  resolveTracing,
  runnerTracingConfig,
  traceContentOffByEnv,
} from '../../src/tracing/resolve.js';

describe('resolveTracing', () => {
  it('defaults: on, content kept, no OTLP, OpenAI export only with a key', () => {
    expect(resolveTracing({})).toEqual({
      enabled: true,
      content: true,
      openai: false,
      secrets: [],
      processors: [],
    });
    expect(resolveTracing({ OPENAI_API_KEY: 'sk-long-enough' }).openai).toBe(true);
  });

  it('reads each variable', () => {
    const resolved = resolveTracing({
      COLLOQUY_TRACE_CONTENT: 'OFF',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:4318/',
      OTEL_SERVICE_NAME: 'svc',
      ANTHROPIC_API_KEY: 'short',
      COLLOQUY_API_KEY: 'colloquy-key-1',
    });
    expect(resolved).toMatchObject({
      enabled: true,
      content: false,
      otlp: { url: 'http://h:4318/v1/traces', serviceName: 'svc' },
      secrets: ['colloquy-key-1'],
    });
  });

  it('lets options win, and turns every export off with tracing', () => {
    const processor = {} as TracingProcessor;
    const env = { COLLOQUY_TRACE_CONTENT: 'off', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h' };
    expect(resolveTracing(env, { content: true, otlp: false, processors: [processor] })).toEqual(
      expect.objectContaining({ content: true, processors: [processor] }),
    );
    expect(resolveTracing(env, { otlp: false }).otlp).toBeUndefined();
    const off = resolveTracing({ ...env, COLLOQUY_TRACING: 'off', OPENAI_API_KEY: 'sk-12345678' });
    expect(off).toMatchObject({ enabled: false, openai: false });
    expect(off.otlp).toBeUndefined();
  });

  it('reads COLLOQUY_TRACE_CONTENT=off|false|0|no only', () => {
    for (const value of ['off', 'False', '0', 'no'])
      expect(traceContentOffByEnv({ COLLOQUY_TRACE_CONTENT: value })).toBe(true);
    for (const value of [undefined, '', 'on', 'offline'])
      expect(traceContentOffByEnv({ COLLOQUY_TRACE_CONTENT: value })).toBe(false);
  });
});

describe('runnerTracingConfig', () => {
  it('keeps sensitive data out of SDK spans when content is off, unless the agency says', () => {
    const off = resolveTracing({ COLLOQUY_TRACE_CONTENT: 'off' });
    expect(runnerTracingConfig({}, off)).toEqual({
      tracingDisabled: false,
      traceIncludeSensitiveData: false,
    });
    expect(runnerTracingConfig({ content: true, tracing: false }, off)).toEqual({
      tracingDisabled: true,
      traceIncludeSensitiveData: true,
    });
    expect(runnerTracingConfig({}, resolveTracing({})).traceIncludeSensitiveData).toBe(true);
  });
});
