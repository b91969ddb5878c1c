import { describe, expect, it } from 'vitest'
import { readBenchmarkPoses, type Episode } from '../../../src/episode/index.ts'
import { EvaluateError } from '../../../src/evaluate/errors.ts'
import { readFinalScene } from '../../../src/evaluate/final-scene.ts'
import { archiveOf, buildActiveEpisode, buildSetupEpisode } from '../../helpers/episode-fixture.ts'

const PART_IDS = ['a', 'b', 'c']

async function scene(final: Episode, initial: Episode = buildSetupEpisode({ parts: 3, sourcePartIds: PART_IDS })) {
  return readFinalScene({ finalBytes: await archiveOf(final), initialBytes: await archiveOf(initial), partIds: PART_IDS, finalSource: 'final.episode.zip', initialSource: 'initial.episode.zip' })
}

describe('readFinalScene', () => {
  it('scores the initial frame of an episode with no committed state (state index 0)', async () => {
    const result = await scene(buildSetupEpisode({ parts: 3, sourcePartIds: PART_IDS }))
    expect(result.stateIndex).toBe(0)
    expect(result.poses.map(p => Array.from(p.position))).toEqual([[0, 0, 0], [0, 0, 0], [0, 0, 0]])
    expect(result.episodeSha256).toMatch(/^[0-9a-f]{64}$/)
  })

  it('takes the state with the highest index and reads the same poses as the free-joint shortcut', async () => {
    const final = await buildActiveEpisode({ parts: 3, sourcePartIds: PART_IDS })
    // A second committed state with a non-normalised rotation of part 3 (MuJoCo normalises it on forward).
    const latest = new Float64Array(final.states[0]!.integration)
    latest.set([0.3, -0.2, 0.05, 0.9, 0.1, -0.4, 0.2], 1 + 7 * 2)
    final.states.push({ ...structuredClone({ ...final.states[0]!, integration: undefined }), index: 2, integration: latest })
    final.calls.push({ ...structuredClone(final.calls[1]!), index: final.calls.length, id: `call-${final.calls.length}`, before_index: 1, state_index: 2, trace_start: 2, trace_end: 2, timestamp: '2026-01-01T00:01:00.000Z' })
    final.events.push(
      { index: final.events.length, call_id: `call-${final.calls.length - 1}`, kind: 'request', timestamp: '2026-01-01T00:01:00.000Z', sim_time: 0 },
      { index: final.events.length + 1, call_id: `call-${final.calls.length - 1}`, kind: 'complete', timestamp: '2026-01-01T00:01:00.001Z', sim_time: 0 },
    )
    const result = await scene(final)
    expect(result.stateIndex).toBe(2)
    const shortcut = readBenchmarkPoses(latest, 3)
    result.poses.forEach((pose, i) => {
      pose.position.forEach((value, k) => expect(value).toBe(shortcut.positions[3 * i + k]))
      pose.rotation.forEach((value, k) => expect(Math.abs(value - shortcut.rotations[9 * i + k]!)).toBeLessThan(1e-15))
    })
    expect(Array.from(result.poses[0]!.position)).toEqual([0.1, 0, 0])
  })

  it.each([
    ['a world file that is not byte-identical', (e: Episode) => { e.world.set('world/meshes/part-0002.obj', new TextEncoder().encode('v 0 0 0\n')) }, /part-0002\.obj is not byte-identical/],
    ['a different episode id', (e: Episode) => { e.manifest.id = `awa-${'f'.repeat(64)}` }, /manifest\.id differs/],
    ['a renamed object', (e: Episode) => { e.manifest.objects[1]!.name = 'Part z' }, /manifest\.objects differs/],
    ['a different producer', (e: Episode) => { e.manifest.producer = { ...e.manifest.producer, build: 'cd'.repeat(32) } }, /manifest\.producer differs/],
  ])('rejects a final episode with %s', async (_label, mutate, message) => {
    const final = await buildActiveEpisode({ parts: 3, sourcePartIds: PART_IDS })
    mutate(final)
    const error = await scene(final).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EvaluateError)
    expect((error as EvaluateError).code).toBe('EVALUATE_FINAL_MISMATCH')
    expect((error as Error).message).toMatch(message)
    expect((error as Error).message).toContain('final.episode.zip')
  })

  it('rejects an evaluation whose parts are not the episode catalogue', async () => {
    const final = buildSetupEpisode({ parts: 3, sourcePartIds: PART_IDS })
    const bytes = await archiveOf(final)
    await expect(readFinalScene({ finalBytes: bytes, initialBytes: bytes, partIds: ['a', 'b'], finalSource: 'f', initialSource: 'i' }))
      .rejects.toThrow(/initial episode's objects are not the 2 parts/)
  })
})
