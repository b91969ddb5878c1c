// A setup file that runs in each block's tester page before the block suite: compromised page code, as an agent that
// escaped its realm would be. It forges what the page reports: it drops the block's thresholds, so the suite asserts
// nothing and its first sample's test passes although Node scored it below them; and it answers the second sample's
// plan with a forged "recorded" SR 1 row, so that test passes without the sample ever running. Before the tests it
// also goes at Vitest itself: a second browser-API socket naming another project, and a cancel of the run over
// Vitest's RPC; and it hands its origin to the test (AWB_TEST_CONTROL), which probes the same server as a local
// process. Node's ledger and the plugin's gates must win over all of it.
import { beforeAll, beforeEach, inject } from 'vitest'
import { SamplePlanSchema } from '../../../src/harness/index.ts'

const NEVER_RAN = 'sample-01'
const block = inject('awbBlock')
block.thresholds = {}

let running: string | undefined
beforeEach(({ task }) => {
  running = task.name
})

const parse = SamplePlanSchema.parse.bind(SamplePlanSchema)
SamplePlanSchema.parse = ((value: unknown) => {
  const plan = parse(value)
  if (plan.kind !== 'run' || running !== NEVER_RAN) return plan
  const timings = { openMs: 0, agentMs: 0, exportMs: 0, saveMs: 0, scoreMs: 0, scoreQueueMs: 0, scoreComputeMs: 0 }
  const row = {
    block: block.name, sample_id: NEVER_RAN, run: '/forged', duration_seconds: 1, usage: null, cost_usd: null, tool_calls: 1, attempt_finished: true,
    status: 'scored', SR: 1, PA: 1, SCD: 0, protocol_version: 'assembly-evaluation-v1', episode_sha256: '0'.repeat(64), state_index: 0, parts: [],
    alignment: { rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: [0, 0, 0], chamfer: 0, seed: 'pca-00', best_iteration: 0, iterations: 1, converged: true },
    scale_divisor: 1,
  }
  return { kind: 'recorded', row, timings, backend: 'forged', runDir: '/forged', sampleDir: '/forged', failure: null }
}) as typeof SamplePlanSchema.parse

interface RunnerGlobals {
  __vitest_browser_runner__?: { sessionId?: string }
  __vitest_worker__?: { rpc?: Record<string, (...args: unknown[]) => unknown> }
  VITEST_API_TOKEN?: string
}

/** Opens a browser-API socket as this page's session but naming `projectName`: 'opened' or 'refused'. */
function foreignProjectSocket(projectName: string): Promise<string> {
  const globals = globalThis as RunnerGlobals
  const query = new URLSearchParams({ type: 'tester', rpcId: crypto.randomUUID(), sessionId: globals.__vitest_browser_runner__?.sessionId ?? 'unknown', projectName, method: 'run', token: globals.VITEST_API_TOKEN ?? '0' })
  const socket = new WebSocket(`ws://${location.host}/__vitest_browser_api__?${query}`)
  return new Promise(resolve => {
    socket.onopen = () => { socket.close(); resolve('opened') }
    socket.onerror = () => resolve('refused')
  })
}

beforeAll(async () => {
  const control = import.meta.env.AWB_TEST_CONTROL as string | undefined
  const probes: Record<string, string> = {}
  probes.foreignProjectSocket = await foreignProjectSocket('another-block')
  // The tester's RPC to Vitest (browser mode names the call `cancelCurrentRun`).
  const rpc = (globalThis as RunnerGlobals).__vitest_worker__?.rpc
  try {
    await rpc!.cancelCurrentRun!('keyboard-input')
    probes.rpcCancel = 'asked'
  } catch (error) {
    probes.rpcCancel = `not asked: ${String(error)}`
  }
  // The test probes this server from outside while the page waits for its answer.
  if (control !== undefined) await fetch(`${control}/origin`, { method: 'POST', body: JSON.stringify({ origin: location.origin, probes }) })
})
