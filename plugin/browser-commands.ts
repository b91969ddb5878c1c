// The browser commands through which a block suite reaches the Node side of its run (files, scoring).
import type { BrowserCommand } from 'vitest/node'
import type { BenchmarkSession } from '../src/harness/node/index.ts'
import { modelRequest } from '../src/llm/index.ts'

/** Builds the commands over a session that is opened on first use (config time has no session yet). */
export function createBrowserCommands(session: () => Promise<BenchmarkSession>) {
  const awbStartSample: BrowserCommand<[block: string, sampleId: string]> = async (_context, block, sampleId) =>
    (await session()).startSample(block, sampleId)
  const awbRecord: BrowserCommand<[block: string, sampleId: string, entry: { type: string } & Record<string, unknown>]> = async (_context, block, sampleId, entry) =>
    (await session()).record(block, sampleId, entry)
  const awbSaveFinal: BrowserCommand<[block: string, sampleId: string, base64: string]> = async (_context, block, sampleId, base64) =>
    (await session()).saveFinal(block, sampleId, base64)
  const awbFinishSample: BrowserCommand<[block: string, sampleId: string, report: unknown]> = async (_context, block, sampleId, report) =>
    (await session()).finishSample(block, sampleId, report)
  // API agents run in the page; their model requests come here so that API keys never reach the page.
  const awbModelRequest: BrowserCommand<[request: unknown]> = async (_context, request) => modelRequest(request)
  // CLI agents run here; their MCP relay reaches the tools the test's frame exposed (exposeToolRelay).
  const awbRunCliAgent: BrowserCommand<[block: string, sampleId: string]> = async (context, block, sampleId) =>
    (await session()).runCliAgent(block, sampleId, await context.frame())
  return { awbStartSample, awbRecord, awbSaveFinal, awbFinishSample, awbModelRequest, awbRunCliAgent }
}
