import { describe, expect, test } from 'vitest'
import { decodeEpisode, encodeEpisode } from '../../../src/episode/index.ts'
import type { Episode } from '../../../src/episode/index.ts'
import { archiveOf, buildActiveEpisode, buildSetupEpisode, unzipMembers, zipStored } from '../../helpers/episode-fixture.ts'
import type { EpisodeFixtureOptions } from '../../helpers/episode-fixture.ts'
import { expectEpisodeError, expectRejected, SOURCE } from './expect-episode-error.ts'

/** Archive of the active fixture after `mutate` (no validation on the way, so decode sees the broken rule). */
async function activeArchive(mutate: (episode: Episode) => void, options: EpisodeFixtureOptions = {}): Promise<Uint8Array> {
  return archiveOf(await buildActiveEpisode({ ...options, mutate }))
}

function call(episode: Episode, index: number) {
  const found = episode.calls[index]
  if (found === undefined) throw new Error(`fixture has no call ${index}`)
  return found
}

describe('lifecycle', () => {
  test('a setup episode with recorded calls is rejected', async () => {
    await expectRejected(await activeArchive(e => { e.manifest.lifecycle = 'setup' }), 'EPISODE_LIFECYCLE', 'manifest.json lifecycle', 'no history', '3 calls')
  })

  test('a setup episode with only an event is rejected', async () => {
    const episode = buildSetupEpisode()
    episode.events.push({ index: 0, call_id: 'call-0', kind: 'request', timestamp: '2025-01-01T00:00:00.000Z', sim_time: 0 })
    await expectRejected(await archiveOf(episode), 'EPISODE_LIFECYCLE', '1 events')
  })

  test('lifecycle ended requires manifest.end, and end requires ended', async () => {
    await expectRejected(await activeArchive(e => { e.manifest.lifecycle = 'ended' }), 'EPISODE_LIFECYCLE', 'manifest.end is missing')
    await expectRejected(await activeArchive(e => { e.manifest.end = { reason: 'done' } }), 'EPISODE_LIFECYCLE', 'end is allowed only')
    const ended = await decodeEpisode(await activeArchive(e => { e.manifest.lifecycle = 'ended'; e.manifest.end = { reason: 'done' } }))
    expect(ended.manifest.end).toEqual({ reason: 'done' })
  })
})

describe('manifest rules beyond the schema', () => {
  test('duplicate object ids are rejected', async () => {
    await expectRejected(await activeArchive(e => { e.manifest.objects.push({ id: 'part-0001', name: 'again', type: 'rigid' }) }), 'EPISODE_MANIFEST', 'objects[2].id', 'unique')
  })

  test('quietDuration above maxDuration is rejected', async () => {
    await expectRejected(await activeArchive(e => { e.manifest.runtime.physics.quietDuration = 6 }), 'EPISODE_MANIFEST', 'quietDuration')
  })
})

describe('cameras and groups', () => {
  test('a camera at its target is rejected', async () => {
    await expectRejected(await activeArchive(e => { const s = e.states[0]; if (s) s.camera.target = [...s.camera.position] }), 'EPISODE_CAMERA', 'states[0]', 'at least 0.001')
  })

  test('a camera 0.001 from its target is accepted (the bound is inclusive)', async () => {
    const episode = await decodeEpisode(await activeArchive(e => { e.initial.camera = { position: [0.001, 0, 0], target: [0, 0, 0] } }))
    expect(episode.initial.camera.position[0]).toBe(0.001)
  })

  const group = (id: string, members: string[]) => ({ id, name: 'Group', members })
  test.each([
    ['unknown member', [group('g-1', ['part-0001', 'ghost'])], 'unknown member "ghost"'],
    ['object in two groups', [group('g-1', ['part-0001', 'part-0002']), group('g-2', ['part-0002', 'part-0001'])], 'at most one group'],
    ['group id equal to an object id', [group('part-0001', ['part-0001', 'part-0002'])], 'differ from object ids'],
    ['duplicate group id', [group('g-1', ['part-0001', 'part-0002']), group('g-1', ['part-0003', 'part-0004'])], 'unique'],
  ])('a group with %s is rejected', async (_label, groups, fragment) => {
    await expectRejected(await activeArchive(e => { const s = e.states[0]; if (s) s.groups = groups }, { parts: 4 }), 'EPISODE_GROUP', 'states[0]', fragment)
  })

  test('a group with fewer than 2 members fails the schema', async () => {
    await expectRejected(await activeArchive(e => { e.initial.groups = [group('g-1', ['part-0001'])] }), 'EPISODE_SCHEMA', 'frames.jsonl /initial/groups/0/members')
  })

  test('a valid group is accepted', async () => {
    const episode = await decodeEpisode(await activeArchive(e => { const s = e.states[0]; if (s) { s.groups = [group('g-1', ['part-0002', 'part-0001'])]; s.groupCounter = 1 } }))
    expect(episode.states[0]?.groups[0]?.members).toEqual(['part-0002', 'part-0001'])
  })
})

describe('calls', () => {
  test('a call index that is not its row position is rejected', async () => {
    await expectRejected(await activeArchive(e => { call(e, 1).index = 5 }), 'EPISODE_CALL', 'calls.jsonl[1].index', 'row position')
  })

  test('a duplicate call id is rejected', async () => {
    await expectRejected(await activeArchive(e => { call(e, 1).id = 'call-0' }), 'EPISODE_CALL', 'call-0', 'unique')
  })

  test('an unknown call name fails the schema', async () => {
    await expectRejected(await activeArchive(e => { Object.assign(call(e, 0), { name: 'teleport' }) }), 'EPISODE_SCHEMA', 'calls.jsonl /0/name')
  })

  test('a human-only command recorded for the agent is rejected', async () => {
    await expectRejected(await activeArchive(e => { Object.assign(call(e, 1), { name: 'edit_poses' }) }), 'EPISODE_CALL', 'calls.jsonl[1].actor', 'human')
  })

  test('an unparseable timestamp is rejected', async () => {
    await expectRejected(await activeArchive(e => { call(e, 0).timestamp = '2025-13-45T99:00:00.000Z' }), 'EPISODE_CALL', 'calls.jsonl[0].timestamp', 'ISO-8601')
  })

  test('state_index beyond the committed states is a reference error', async () => {
    await expectRejected(await activeArchive(e => { call(e, 0).state_index = 999 }), 'EPISODE_REFERENCE', 'calls.jsonl[0].state_index', 'reference')
  })

  test('a trace range past the trajectory is a reference error', async () => {
    await expectRejected(await activeArchive(e => { call(e, 1).trace_end = 3 }), 'EPISODE_REFERENCE', 'calls.jsonl[1].trace_end')
  })

  test('status error without an error message is rejected, and an error message without status error', async () => {
    await expectRejected(await activeArchive(e => { delete call(e, 2).error }), 'EPISODE_CALL', 'calls.jsonl[2].error', 'must carry `error`')
    await expectRejected(await activeArchive(e => { call(e, 1).error = 'oops' }), 'EPISODE_CALL', 'calls.jsonl[1].status')
  })

  test('a completed result with an unknown key fails the results schema', async () => {
    await expectRejected(await activeArchive(e => { call(e, 1).result = { status: 'completed', physics: 'disabled', index: 1, extra: 1 } }), 'EPISODE_RESULT_SCHEMA', 'calls.jsonl[1].result', 'translate_objects', 'unknown key "extra"')
  })

  test('a completed call without a result is rejected', async () => {
    await expectRejected(await activeArchive(e => { delete call(e, 0).result }), 'EPISODE_RESULT_SCHEMA', 'has no result')
  })

  test('capture render constants are part of the results schema', async () => {
    await expectRejected(await activeArchive(e => {
      const capture = call(e, 2)
      capture.result = { ...capture.result, render: { width: 800, height: 768, pixelRatio: 1, fovy: 38, near: 0.01, far: 1000 } }
    }, { capture: true }), 'EPISODE_RESULT_SCHEMA', 'capture_scene', '/render/width')
  })

  test('an image result must reference an existing observation', async () => {
    await expectRejected(await activeArchive(e => { e.observations.clear() }, { capture: true }), 'EPISODE_REFERENCE', 'calls.jsonl[2].result', 'not in the archive')
  })
})

describe('events and trajectory', () => {
  test('a call without its complete event is rejected', async () => {
    await expectRejected(await activeArchive(e => {
      e.events = e.events.filter(ev => !(ev.call_id === 'call-0' && ev.kind === 'complete')).map((ev, index) => ({ ...ev, index }))
    }), 'EPISODE_EVENT', 'call "call-0"', 'request event then a complete event')
  })

  test('complete before request is rejected', async () => {
    await expectRejected(await activeArchive(e => {
      const [a, b, ...rest] = e.events
      if (a && b) e.events = [{ ...b, index: 0 }, { ...a, index: 1 }, ...rest]
    }), 'EPISODE_EVENT', '[complete, request]')
  })

  test('an event index that is not its position is rejected', async () => {
    await expectRejected(await activeArchive(e => { const ev = e.events[3]; if (ev) ev.index = 7 }), 'EPISODE_EVENT', 'events.jsonl[3].index')
  })

  test('an event for an unknown call is rejected', async () => {
    await expectRejected(await activeArchive(e => { const ev = e.events[0]; if (ev) ev.call_id = 'call-9' }), 'EPISODE_EVENT', 'events.jsonl[0].call_id', 'unknown call')
  })

  test('a trace frame outside its call range is rejected', async () => {
    await expectRejected(await activeArchive(e => { const f = e.trajectory[1]; if (f) f.call_id = 'call-0' }), 'EPISODE_TRAJECTORY', 'trajectory[1].call_id', 'outside')
  })
})

describe('world assets', () => {
  test.each([
    ['file="../outside.obj"', '../outside.obj'],
    ['meshdir="/abs/"', '/abs/'],
    ['file="a&#46;obj"', 'encoded resource paths'],
  ])('an XML asset attribute %s is rejected', async (attribute, fragment) => {
    const episode = buildSetupEpisode()
    const xml = new TextDecoder().decode(episode.world.get('world/model.xml')).replace('<compiler ', `<compiler ${attribute} `)
    episode.world.set('world/model.xml', new TextEncoder().encode(xml))
    await expectRejected(await archiveOf(episode), 'EPISODE_ASSET_PATH_UNSAFE', 'world/model.xml', fragment)
  })

  test('an MJB episode needs world/<model.path> and accepts it without model.xml', async () => {
    const mjb = (mutate: (e: Episode) => void) => buildSetupEpisode({
      manifest: { model: { format: 'mjb', path: 'model.mjb' }, producer: { backend: 'native', engine: '3.12.0', implementation: 'assembly-world-agent-episode-v1-mjb', language: 'python' } },
      mutate,
    })
    await expectRejected(await archiveOf(mjb(() => undefined)), 'EPISODE_MODEL_MISSING', 'world/model.mjb')
    const episode = await decodeEpisode(await archiveOf(mjb(e => { e.world = new Map([['world/model.mjb', new Uint8Array([1, 2, 3])]]) })))
    expect(episode.manifest.model).toEqual({ format: 'mjb', path: 'model.mjb' })
  })

  test('an MJB model path escaping world/ is rejected', async () => {
    await expectRejected(await archiveOf(buildSetupEpisode({ manifest: { model: { format: 'mjb', path: '../outside.mjb' } } })), 'EPISODE_ASSET_PATH_UNSAFE', 'model.path')
  })
})

describe('encodeEpisode applies the same rules', () => {
  test('state_index 999 fails encoding with a reference error', async () => {
    const episode = await buildActiveEpisode({ mutate: e => { call(e, 0).state_index = 999 } })
    await expectEpisodeError(encodeEpisode(episode, { source: SOURCE }), 'EPISODE_REFERENCE', 'reference')
  })

  test('a NaN integration fails encoding as a non-finite state', async () => {
    const episode = await buildActiveEpisode({ mutate: e => { e.trajectory[0]?.integration.fill(Number.POSITIVE_INFINITY, 0, 1) } })
    await expectEpisodeError(encodeEpisode(episode, { source: SOURCE }), 'EPISODE_NONFINITE_STATE', 'trajectory[0]')
  })

  test('an integration row of the wrong length fails encoding', async () => {
    const episode = await buildActiveEpisode({ mutate: e => { const s = e.states[0]; if (s) s.integration = new Float64Array(68) } })
    await expectEpisodeError(encodeEpisode(episode, { source: SOURCE }), 'EPISODE_FRAMES_LENGTH', 'stateSize is 69')
  })
})

test('the fixture archive survives a re-zip of its own members (helper sanity)', async () => {
  const members = await unzipMembers(await archiveOf(await buildActiveEpisode()))
  await expect(decodeEpisode(zipStored(members))).resolves.toBeDefined()
})
