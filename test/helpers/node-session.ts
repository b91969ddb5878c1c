// A Node-side benchmark session without a page, as unit tests drive it: the idle agent, no scoring workers, input URLs
// that serve nothing. Tests call its methods as the page's browser commands would (`{ project: block }` as caller).
import { join } from 'node:path'
import { BenchmarkSession, type BenchmarkSessionOptions } from '../../src/harness/node/index.ts'

/** Opens a session over the package at `benchmark`, writing runs under `runsRoot`; `extra` overrides any option. */
export function openNodeSession(benchmark: string, runsRoot: string, extra: Partial<BenchmarkSessionOptions> = {}): Promise<BenchmarkSession> {
  return BenchmarkSession.open({
    benchmark,
    runsRoot,
    agent: 'idle',
    model: undefined,
    demonstrations: join(benchmark, 'none'),
    sampleTimeoutSeconds: 600,
    scoringWorkers: 0,
    inputs: { grant: () => ({ episodeUrl: '/e', pageUrl: page => `/p/${page}`, revoke: () => {} }) },
    recordedOptions: {},
    ...extra,
  })
}

/** A page's finish report of a sample whose export failed: the sample ends with an error row, recorded by Node. */
export const EXPORT_FAILED_REPORT = {
  execution: { status: 'completed', final_answer: null, error: null, usage: null, cost_usd: null, model: null },
  archive: { status: 'failed', sha256: null, calls: null, error: 'export failed' },
  agentOutcome: null, toolCalls: 0, durationSeconds: 1, timings: { openMs: 1, agentMs: 1, exportMs: 0, saveMs: 0 }, capture: null,
} as const
