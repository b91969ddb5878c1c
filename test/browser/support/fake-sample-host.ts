// Test support (page): a SampleHost that records what the page sends, standing in for the Node side (no run
// directory, no scoring), and what runSample needs to open a small fixture world. Asserts nothing.
import wasmUrl from '@mujoco/mujoco/mujoco.wasm?url'
import type { ConversationEntry } from '../../../src/agents/index.ts'
import { encodeEpisode } from '../../../src/episode/index.ts'
import { errorFields } from '../../../src/evaluate/rows/index.ts'
import type { FinishSampleRequest, SampleHost, StartSampleResponse } from '../../../src/harness/index.ts'
import { loadMujoco as loadMujocoModule, type SceneRenderer } from '../../../src/world/index.ts'
import { buildSetupEpisode } from '../../helpers/episode-fixture.ts'

export function fakeHost(start: Partial<StartSampleResponse> = {}) {
  const finished: FinishSampleRequest[] = []
  const records: ConversationEntry[] = []
  const saved: string[] = []
  const host: SampleHost = {
    start: async () => ({ prompt: 'Assemble.', episodeUrl: '/episode.zip', pages: [], timeoutMs: 10_000, agent: { kind: 'unavailable', reason: 'no agent given' }, ...start }),
    record: async (entry) => { records.push(entry) },
    saveFinal: async (base64) => { saved.push(base64); return 'a'.repeat(64) },
    finish: async (report) => {
      finished.push(report)
      const scored = report.archive.status === 'saved'
      const base = { block: 'b', sample_id: 's', run: '/tmp/run', duration_seconds: report.durationSeconds, usage: null, cost_usd: null, tool_calls: report.toolCalls, attempt_finished: true }
      const alignment = { rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: [0, 0, 0], chamfer: 0, seed: 'pca-0', best_iteration: 0, iterations: 1, converged: true }
      const row = scored
        ? { ...base, status: 'scored' as const, SCD: 0, PA: 1, SR: 1, protocol_version: 'assembly-evaluation-v1', episode_sha256: 'a'.repeat(64), state_index: 0, parts: [], alignment, scale_divisor: 1 }
        : { ...base, ...errorFields(new Error(report.archive.error ?? 'not saved')) }
      return { row, scoring: { scoreMs: 1, scoreQueueMs: 0, scoreComputeMs: 1 }, backend: 'test', runDir: '/tmp/run', sampleDir: '/tmp/run/blocks/b/samples/s' }
    },
  }
  return { host, finished, records, saved }
}

export const loadMujoco = () => loadMujocoModule({ locateFile: path => (path.endsWith('.wasm') ? wasmUrl : path) })
export const renderer: SceneRenderer = { name: 'test-renderer', capture: async () => new Uint8Array([0x89, 0x50, 0x4e, 0x47]), dispose: () => {} }

/** A fetch that answers every input URL with `bytes` (404 when undefined). */
export function serving(bytes: Uint8Array | undefined): typeof fetch {
  return async () => (bytes === undefined ? new Response('no such input', { status: 404 }) : new Response(new Blob([bytes.slice()])))
}

/** The initial episode of a small fixture world, as the input route serves it. */
export const fixtureEpisode = () => encodeEpisode(buildSetupEpisode())
