/** examples/agency-swarm/multiAgentWorkflow.ts (agency-swarm's multi_agent_workflow.py, ported) runs offline. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import type { ScriptedModel } from '../../src/models/scriptedModel.js';

const EXAMPLE = fileURLToPath(
  new URL('../../examples/agency-swarm/multiAgentWorkflow.ts', import.meta.url),
);

describe('examples/agency-swarm/multiAgentWorkflow.ts', () => {
  it('runs as a script: tools, two delegations with structured outputs, one compiled answer', async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      EXAMPLE,
    ]);
    expect(stderr).toBe('');
    expect(stdout.trim().split('\n')).toEqual([
      'Client request: Analyze investment opportunity for AAPL',
      'Final output: AAPL: Hold, buy below $160 (risk Moderate, 6/10).',
      'Tools called: fetch_market_data:AAPL, analyze_risk_factors:AAPL, format_professional_report',
      'PortfolioManager → RiskAnalyst: Assess the risk of AAPL. Retrieved marke…',
      '  RiskAnalyst → PortfolioManager: structured output',
      'PortfolioManager → ReportGenerator: Write the report on AAPL. Risk: {"risk_l…',
      '  ReportGenerator → PortfolioManager: structured output',
      'Threads: aapl__PortfolioManager__ReportGenerator, aapl__PortfolioManager__RiskAnalyst, aapl__PortfolioManager__USER',
      'Model calls: 8',
    ]);
  }, 30_000);

  it('gives every agent the shared instructions and the specialists their output schemas; getCompletion answers the v0 way', async () => {
    const { agency, toolCallsMade } =
      await import('../../examples/agency-swarm/multiAgentWorkflow.js');
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const text = await agency.getCompletion('Analyze investment opportunity for MSFT');
    warn.mockRestore();
    expect(text).toBe('MSFT: Hold, buy below $160 (risk Moderate, 6/10).');
    expect(toolCallsMade).toEqual([
      'fetch_market_data:MSFT',
      'analyze_risk_factors:MSFT',
      'format_professional_report',
    ]);
    for (const name of ['PortfolioManager', 'RiskAnalyst', 'ReportGenerator']) {
      const model = agency.agents.get(name)!.model as ScriptedModel;
      expect(model.calls.length, name).toBeGreaterThan(0);
      expect(model.calls[0]!.request.systemInstructions, name).toMatch(
        /^Provide accurate, professional financial analysis\./,
      );
    }
    const analyst = (agency.agents.get('RiskAnalyst')!.model as ScriptedModel).calls[0]!.request;
    expect(JSON.stringify(analyst.outputType)).toContain('risk_score');
  });
});
