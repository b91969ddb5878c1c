// The browser commands through which a block suite reaches the Node side of its run (files, scoring); the refusals that
// replace Vitest's own host-touching commands live in vitest-compat/commands.ts. Page code is untrusted (agents run
// there): every command is bound to the project Vitest says sent it, and the session's SampleGate checks the rest.
import type { BrowserCommand, BrowserCommandContext } from 'vitest/node'
import type { BenchmarkSession, CommandCaller } from '../src/harness/node/index.ts'
import { blockOfProject } from './vitest-compat/index.ts'

/**
 * The caller as the Node side knows it: the block its project was configured for (Vitest routes each command
 * from a page to that page's project, so the page cannot choose it).
 */
export function callerOf(context: Pick<BrowserCommandContext, 'project'>): CommandCaller {
  return { project: blockOfProject(context.project) ?? `(project ${context.project.name} runs no benchmark block)` }
}

/**
 * Builds the commands over a session that is opened on first use (config time has no session yet). `verifyDefences`
 * checks the calling project's integrity defences again before each sample is planned: the startup check runs when
 * projects are resolved, and a plugin hook that runs later could still undo one.
 */
export function createBrowserCommands(session: () => Promise<BenchmarkSession>, verifyDefences: (project: BrowserCommandContext['project']) => void) {
  const awbSamplePlan: BrowserCommand<[block: string, sampleId: string]> = async (context, block, sampleId) => {
    verifyDefences(context.project)
    return (await session()).samplePlan(callerOf(context), block, sampleId)
  }
  const awbStartSample: BrowserCommand<[block: string, sampleId: string]> = async (context, block, sampleId) =>
    (await session()).startSample(callerOf(context), block, sampleId)
  const awbRecord: BrowserCommand<[block: string, sampleId: string, entry: unknown]> = async (context, block, sampleId, entry) =>
    (await session()).record(callerOf(context), block, sampleId, entry)
  const awbSaveFinal: BrowserCommand<[block: string, sampleId: string, base64: string]> = async (context, block, sampleId, base64) =>
    (await session()).saveFinal(callerOf(context), block, sampleId, base64)
  const awbFinishSample: BrowserCommand<[block: string, sampleId: string, report: unknown]> = async (context, block, sampleId, report) =>
    (await session()).finishSample(callerOf(context), block, sampleId, report)
  const awbHeartbeat: BrowserCommand<[block: string, sampleId: string]> = async (context, block, sampleId) =>
    (await session()).heartbeat(callerOf(context), block, sampleId)
  // API agents run in the page; their model requests come here so that API keys never reach the page.
  const awbModelRequest: BrowserCommand<[request: unknown]> = async (context, request) =>
    (await session()).modelRequest(callerOf(context), request)
  // CLI agents run here; their MCP relay reaches the tools the test's frame exposed (exposeToolRelay).
  const awbRunCliAgent: BrowserCommand<[block: string, sampleId: string]> = async (context, block, sampleId) =>
    (await session()).runCliAgent(callerOf(context), block, sampleId, await context.frame())
  return { awbSamplePlan, awbStartSample, awbHeartbeat, awbRecord, awbSaveFinal, awbFinishSample, awbModelRequest, awbRunCliAgent }
}
