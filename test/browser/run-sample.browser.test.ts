import wasmUrl from '@mujoco/mujoco/mujoco.wasm?url'
import { describe, expect, it } from 'vitest'
import type { ConversationEntry } from '../../src/agents/index.ts'
import { encodeEpisode } from '../../src/episode/index.ts'
import { errorFields } from '../../src/evaluate/rows/index.ts'
import { runSample, type SampleHost } from '../../src/harness/index.ts'
import type { FinishSampleRequest, StartSampleResponse } from '../../src/harness/index.ts'
import { loadMujoco as loadMujocoModule, type SceneRenderer } from '../../src/world/index.ts'
import { buildSetupEpisode } from '../helpers/episode-fixture.ts'

/** A host that records what the page sends, standing in for the Node side (no run directory, no scoring). */
function fakeHost(start: Partial<StartSampleResponse> = {}) {
  const finished: FinishSampleRequest[] = []
  const records: ConversationEntry[] = []
  const saved: string[] = []
  const host: SampleHost = {
    start: async () => ({ prompt: 'Assemble.', episodeUrl: '/episode.zip', pages: [], timeoutMs: 10_000, agent: { kind: 'idle' }, ...start }),
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

const loadMujoco = () => loadMujocoModule({ locateFile: path => (path.endsWith('.wasm') ? wasmUrl : path) })
const renderer: SceneRenderer = { name: 'test-renderer', capture: async () => new Uint8Array([0x89, 0x50, 0x4e, 0x47]), dispose: () => {} }

function serving(bytes: Uint8Array | undefined): typeof fetch {
  return async () => (bytes === undefined ? new Response('no such input', { status: 404 }) : new Response(new Blob([bytes.slice()])))
}

describe('runSample', () => {
  it('runs the agent, exports and saves the final episode, and reports the phases', async () => {
    const { host, finished, saved } = fakeHost({ agent: { kind: 'replay', source: 'demo', script: '{"name":"translate_objects","arguments":{"ids":["part-0001"],"delta":[0.1,0,0]}}\n' } })
    const report = await runSample(host, { mujoco: await loadMujoco(), createRenderer: () => renderer, fetch: serving(await encodeEpisode(buildSetupEpisode())) })
    expect(report.failure).toBeUndefined()
    expect(saved).toHaveLength(1)
    expect(finished[0]).toMatchObject({ execution: { status: 'completed' }, archive: { status: 'saved', calls: 1 }, toolCalls: 1, agentOutcome: { status: 'completed' } })
    expect(report.capture).toBe(btoa(String.fromCharCode(0x89, 0x50, 0x4e, 0x47)))
  })

  it('turns an environment that fails to open into an error row and a failure, without saving anything', async () => {
    const { host, finished, saved } = fakeHost()
    const report = await runSample(host, { mujoco: await loadMujoco(), createRenderer: () => renderer, fetch: serving(undefined) })
    expect(report.failure).toMatch(/the environment failed to open: .*404/)
    expect(saved).toEqual([])
    expect(finished[0]).toMatchObject({ execution: { status: 'failed' }, archive: { status: 'not_saved' } })
    expect(report.response.row).toMatchObject({ status: 'error', SCD: null, PA: 0, SR: 0 })
  })

  it('still exports and saves the world when the agent is unavailable or times out', async () => {
    const unavailable = fakeHost({ agent: { kind: 'unavailable', reason: 'no demonstration for b/s' } })
    const episode = await encodeEpisode(buildSetupEpisode())
    const first = await runSample(unavailable.host, { mujoco: await loadMujoco(), createRenderer: () => renderer, fetch: serving(episode) })
    expect(first.failure).toMatch(/the agent failed: Error: no demonstration for b\/s/)
    expect(unavailable.finished[0]).toMatchObject({ execution: { status: 'failed' }, archive: { status: 'saved' } })

    const slow = fakeHost({ timeoutMs: 50, agent: { kind: 'api', spec: { provider: 'openai', model: 'm', maxTurns: 5, maxOutputTokens: 10 } } })
    const hanging = { send: () => new Promise<never>(() => {}) }
    const second = await runSample(slow.host, { mujoco: await loadMujoco(), createRenderer: () => renderer, fetch: serving(episode), modelTransport: hanging })
    expect(second.failure).toMatch(/the agent timed out/)
    expect(slow.finished[0]).toMatchObject({ execution: { status: 'timeout' }, archive: { status: 'saved' } })
  })
})
