// Gathers what the rebuild of a lost sample's world reads, all of it Node's: the initial episode from the package
// (hash checked), the conversation.jsonl Node wrote, and for CLI agents the MCP page and reference pages their surface
// showed; then rebuilds (`rebuild-world.ts`). Saves and scores nothing (the recorder does).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { readEpisode, type BenchmarkPackage, type PackageSample } from '../../package/index.ts'
import { cliRelayView } from './cli-relay-view.ts'
import { rebuildWorld, type RebuildDialect, type RebuildOutcome } from './rebuild-world.ts'
import type { GatedAgentKind } from './sample-gate.ts'

export interface LostSampleRecords {
  pkg: BenchmarkPackage
  block: string
  sample: PackageSample
  /** The sample's folder in the run, holding the conversation.jsonl Node wrote (every append settled). */
  sampleDir: string
  /** How the sample's agent reached its world. */
  agentKind: GatedAgentKind
}

/** Rebuilds the sample's world from Node's records; a record or file that cannot be read gives `not_rebuilt`. */
export async function rebuildLostSample(records: LostSampleRecords): Promise<RebuildOutcome> {
  const { pkg, block, sample } = records
  let conversation: string
  let initialEpisode: Uint8Array
  let dialect: RebuildDialect
  try {
    conversation = await readFile(join(records.sampleDir, 'conversation.jsonl'), 'utf8')
    initialEpisode = await readEpisode(pkg, sample)
    dialect = await dialectOf(records)
  } catch (error) {
    return { status: 'not_rebuilt', reason: `its records could not be read: ${error instanceof Error ? error.message : String(error)}`, toolCalls: 0 }
  }
  return rebuildWorld({ initialEpisode, initialSource: `${block} / ${sample.id} initial episode`, conversation, dialect })
}

async function dialectOf(records: LostSampleRecords): Promise<RebuildDialect> {
  const { pkg, sample } = records
  switch (records.agentKind) {
    case 'page':
    case 'api':
      return { kind: records.agentKind }
    case 'cli':
      // The surface AgentLauncher.runCli gives CLI agents and external programs: the benchmark surface (the default of
      // their runners) over the relay's view of the sample.
      return { kind: 'mcp', surface: 'benchmark', ...(await cliRelayView(pkg, sample)) }
    default: {
      const never: never = records.agentKind
      throw new TypeError(`unknown agent kind ${String(never)}`)
    }
  }
}
