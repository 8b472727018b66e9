/**
 * agency-swarm's `examples/multi_agent_workflow.py`, ported: a PortfolioManager gathers market
 * data with a tool, asks a RiskAnalyst (structured risk assessment) and a ReportGenerator
 * (structured report) through send_message, and compiles the recommendation. Every agent reads
 * the agency's shared instructions. The models are scripted, so it runs offline and prints the
 * same thing every time; give each agent `model: 'gpt-4.1'` to run it on OpenAI.
 *
 *   npx tsx examples/agency-swarm/multiAgentWorkflow.ts
 *
 * What changed in the port (docs/coming-from-agency-swarm.md explains each):
 * - `Agency(pm, communication_flows=[pm > analyst, pm > reporter])` → `entryPoints: [pm]`,
 *   `communicationFlows: [[pm, analyst], [pm, reporter]]`;
 * - `@function_tool` → the SDK's `tool({ name, parameters: zod, execute })`;
 * - pydantic `output_type` models → zod schemas as `outputType`;
 * - `shared_instructions` → `sharedInstructions`; `get_response` → `getResponse`.
 *
 * In your own project, import from the package ('colloquy') instead of the source tree.
 */
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { Agency, Agent, ThreadManager, tool } from '../../src/index.js';
import { ScriptedModel, lastUserText, toolOutputsSinceUser } from '../../src/models.js';

// --- Structured output types (pydantic models in the original) ---
const RiskAssessment = z.object({
  risk_level: z.string().describe('Overall risk level (Low/Moderate/High)'),
  risk_score: z.string().describe('Risk score out of 10'),
  key_risks: z.array(z.string()).describe('List of key risk factors'),
  recommendation: z.string().describe('Risk-based recommendation'),
});

const InvestmentReport = z.object({
  executive_summary: z.string(),
  market_position: z.string(),
  risk_analysis: z.string(),
  final_recommendation: z.string(),
});

/** Which tools ran, in order (the original's validation list). */
export const toolCallsMade: string[] = [];

// --- Tools ---
const fetchMarketData = tool({
  name: 'fetch_market_data',
  description: 'Fetches basic market data for a stock symbol.',
  parameters: z.object({ symbol: z.string() }),
  execute: async ({ symbol }) => {
    toolCallsMade.push(`fetch_market_data:${symbol}`);
    return `Retrieved market data for ${symbol}: Price $175.43, Market Cap $2.85T, P/E 28.5, Rating: Buy`;
  },
});

const analyzeRiskFactors = tool({
  name: 'analyze_risk_factors',
  description: 'Analyzes risk factors for a stock.',
  parameters: z.object({ symbol: z.string() }),
  execute: async ({ symbol }) => {
    toolCallsMade.push(`analyze_risk_factors:${symbol}`);
    return `Risk analysis for ${symbol}: High P/E suggests overvaluation risk, Beta 1.29 indicates volatility, Strong balance sheet provides stability`;
  },
});

const formatProfessionalReport = tool({
  name: 'format_professional_report',
  description: 'Formats content into a professional investment report.',
  parameters: z.object({ content: z.string() }),
  execute: async ({ content }) => {
    toolCallsMade.push('format_professional_report');
    return `Professional report formatted with: ${content.slice(0, 50)}...`;
  },
});

// --- Scripted models: what a real model would decide, step by step ---
const symbolOf = (text: string): string => /\b[A-Z]{2,5}\b/.exec(text)?.[0] ?? 'AAPL';

const portfolioManagerModel = new ScriptedModel((request) => {
  const outputs = toolOutputsSinceUser(request);
  const symbol = symbolOf(lastUserText(request));
  if (outputs.length === 0) return { tool: 'fetch_market_data', args: { symbol } };
  if (outputs.length === 1)
    return {
      tool: 'send_message',
      args: { recipient: 'RiskAnalyst', message: `Assess the risk of ${symbol}. ${outputs[0]}` },
    };
  if (outputs.length === 2)
    return {
      tool: 'send_message',
      args: {
        recipient: 'ReportGenerator',
        message: `Write the report on ${symbol}. Risk: ${outputs[1]}`,
      },
    };
  const risk = RiskAssessment.parse(JSON.parse(outputs[1]!));
  const report = InvestmentReport.parse(JSON.parse(outputs[2]!));
  return `${symbol}: ${report.final_recommendation} (risk ${risk.risk_level}, ${risk.risk_score}/10).`;
});

const riskAnalystModel = new ScriptedModel((request) => {
  const [analysis] = toolOutputsSinceUser(request);
  if (analysis === undefined)
    return { tool: 'analyze_risk_factors', args: { symbol: symbolOf(lastUserText(request)) } };
  return JSON.stringify({
    risk_level: 'Moderate',
    risk_score: '6',
    key_risks: ['Overvaluation (P/E 28.5)', 'Volatility (beta 1.29)'],
    recommendation: 'Hold; add on pullbacks.',
  });
});

const reportGeneratorModel = new ScriptedModel((request) => {
  const [formatted] = toolOutputsSinceUser(request);
  if (formatted === undefined)
    return { tool: 'format_professional_report', args: { content: lastUserText(request) } };
  return JSON.stringify({
    executive_summary: 'A high-quality company priced for growth.',
    market_position: 'Market leader, $2.85T market cap.',
    risk_analysis: 'Moderate: valuation and volatility, offset by a strong balance sheet.',
    final_recommendation: 'Hold, buy below $160',
  });
});

// --- Agents ---
const portfolioManager = new Agent({
  name: 'PortfolioManager',
  instructions:
    'You orchestrate investment research: use fetch_market_data, delegate risk analysis to RiskAnalyst, ' +
    'delegate report formatting to ReportGenerator, then compile the final recommendation.',
  tools: [fetchMarketData],
  model: portfolioManagerModel,
});

const riskAnalyst = new Agent({
  name: 'RiskAnalyst',
  description: 'Investment risk analysis.',
  instructions:
    'Use analyze_risk_factors, assess volatility and valuation, return a structured risk assessment.',
  tools: [analyzeRiskFactors],
  outputType: RiskAssessment,
  model: riskAnalystModel,
});

const reportGenerator = new Agent({
  name: 'ReportGenerator',
  description: 'Professional investment reports.',
  instructions: 'Use format_professional_report, structure the report in clear sections.',
  tools: [formatProfessionalReport],
  outputType: InvestmentReport,
  model: reportGeneratorModel,
});

/** The agency; `colloquy chat` and `colloquy serve` load this export. */
export const agency = new Agency({
  name: 'investment-research',
  entryPoints: [portfolioManager],
  communicationFlows: [
    [portfolioManager, riskAnalyst],
    [portfolioManager, reportGenerator],
  ],
  sharedInstructions: 'Provide accurate, professional financial analysis.',
  // In memory, as the original keeps threads until you add load/save callbacks; drop this line
  // to keep them in ./.colloquy/colloquy.db.
  threads: new ThreadManager(),
});

async function main(): Promise<void> {
  console.log('Client request: Analyze investment opportunity for AAPL');
  const result = await agency.getResponse('Analyze investment opportunity for AAPL', {
    chatId: 'aapl',
  });
  console.log(`Final output: ${String(result.finalOutput)}`);
  console.log(`Tools called: ${toolCallsMade.join(', ')}`);
  // The original prints the send_message exchanges; here every item carries its agent and caller.
  for (const { agent, callerAgent, depth, item } of result.newItems) {
    if (item.type === 'function_call' && item.name === 'send_message') {
      const args = JSON.parse(item.arguments) as { recipient: string; message: string };
      console.log(
        `${'  '.repeat(depth)}${agent} → ${args.recipient}: ${args.message.slice(0, 40)}…`,
      );
    }
    if (depth === 1 && callerAgent && 'role' in item && item.role === 'assistant')
      console.log(`${'  '.repeat(depth)}${agent} → ${callerAgent}: structured output`);
  }
  console.log(
    `Threads: ${(await agency.threads.store.listThreads({ chatId: 'aapl' })).map((t) => t.threadId).join(', ')}`,
  );
  console.log(`Model calls: ${result.usage.requests}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
