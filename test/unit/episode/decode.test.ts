import { unzipSync } from 'fflate'
import { describe, expect, test } from 'vitest'
import { decodeEpisode } from '../../../src/episode/index.ts'
import { MAX_EPISODE_UNZIPPED_BYTES } from '../../../src/episode/read-members.ts'
import { archiveOf, buildActiveEpisode, buildSetupEpisode, patchManifest, rehash, unzipMembers, zipStored } from '../../helpers/episode-fixture.ts'
import { expectRejected, SOURCE } from './expect-episode-error.ts'

async function setupMembers(): Promise<Map<string, Uint8Array>> {
  return unzipMembers(await archiveOf(buildSetupEpisode()))
}

describe('decodeEpisode: accepted archives', () => {
  test('a stored (uncompressed) setup archive from another writer decodes with the §2.17 fields', async () => {
    const episode = await decodeEpisode(await archiveOf(buildSetupEpisode()), { source: SOURCE })
    expect(episode.manifest.stateSize).toBe(69)
    expect(episode.manifest.lifecycle).toBe('setup')
    expect(episode.initial.integration).toBeInstanceOf(Float64Array)
    expect(Array.from(episode.initial.integration.subarray(0, 15))).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0])
    expect([...episode.world.keys()].sort()).toEqual(['world/meshes/part-0001.obj', 'world/meshes/part-0002.obj', 'world/model.xml'])
    expect(episode.revision).toBe(0)
  })

  test('an active archive with a capture decodes calls, events, trace frames and the observation', async () => {
    const episode = await decodeEpisode(await archiveOf(await buildActiveEpisode({ capture: true })), { source: SOURCE })
    expect(episode.calls.map(call => [call.name, call.status])).toEqual([
      ['get_scene', 'completed'], ['translate_objects', 'completed'], ['capture_scene', 'completed'], ['get_object', 'error'],
    ])
    expect(episode.events).toHaveLength(8)
    expect(episode.trajectory.map(frame => frame.phase)).toEqual(['input', 'final'])
    expect(episode.states[0]?.integration[1]).toBe(0.1)
    expect(episode.observations.size).toBe(1)
  })

  test('blank lines in JSONL members are skipped', async () => {
    const members = await unzipMembers(await archiveOf(await buildActiveEpisode()))
    const text = new TextDecoder().decode(members.get('events.jsonl'))
    members.set('events.jsonl', new TextEncoder().encode(`\n${text.replaceAll('\n', '\n\n')}\n`))
    const episode = await decodeEpisode(zipStored(await rehash(members)), { source: SOURCE })
    expect(episode.events).toHaveLength(6)
  })
})

describe('decodeEpisode: member rules', () => {
  test('a changed world file is an Archive checksum mismatch naming the member', async () => {
    const members = await setupMembers()
    members.set('world/model.xml', new TextEncoder().encode(`${new TextDecoder().decode(members.get('world/model.xml'))} `))
    await expectRejected(zipStored(members), 'EPISODE_HASH_MISMATCH', 'world/model.xml', 'checksum mismatch')
  })

  test('a member listed in manifest.hashes but absent is a mismatch', async () => {
    const members = await setupMembers()
    members.delete('world/meshes/part-0002.obj')
    await expectRejected(zipStored(members), 'EPISODE_HASH_MISMATCH', 'world/meshes/part-0002.obj', 'lacks it')
  })

  test('a member missing from manifest.hashes is a mismatch', async () => {
    const members = await setupMembers()
    members.set('world/meshes/extra.obj', new TextEncoder().encode('v 0 0 0\n'))
    await expectRejected(zipStored(members), 'EPISODE_HASH_MISMATCH', 'world/meshes/extra.obj', 'not listed')
  })

  test('a legacy actions.jsonl is rejected even when hashed', async () => {
    const members = await setupMembers()
    members.set('actions.jsonl', new Uint8Array(0))
    await expectRejected(zipStored(await rehash(members)), 'EPISODE_MEMBER_EXTRA', 'actions.jsonl', 'not an episode member')
  })

  test.each(['calls.jsonl', 'events.jsonl', 'frames.bin', 'frames.jsonl', 'manifest.json'])('missing %s is rejected', async name => {
    const members = await setupMembers()
    members.delete(name)
    const bytes = zipStored(name === 'manifest.json' ? members : await rehash(members))
    await expectRejected(bytes, 'EPISODE_MEMBER_MISSING', name, 'required')
  })

  test.each(['../x', '/x', 'a\\b', 'world/../model.xml', 'world//model.xml', 'world/./x', 'C:/x', 'world/'])('unsafe member name %j is rejected', async name => {
    const members = await setupMembers()
    members.set(name, new Uint8Array([1]))
    await expectRejected(zipStored(members), 'EPISODE_MEMBER_UNSAFE', JSON.stringify(name), 'not a safe relative path')
  })

  test('a duplicate member name is rejected although fflate alone would silently keep one copy', async () => {
    const members = await setupMembers()
    const entries: Array<[string, Uint8Array]> = [...members, ['frames.bin', members.get('frames.bin') ?? new Uint8Array(0)]]
    const bytes = zipStored(entries)
    const fflateView = unzipSync(bytes)
    expect(Object.keys(fflateView).filter(name => name === 'frames.bin')).toHaveLength(1)
    await expectRejected(bytes, 'EPISODE_MEMBER_DUPLICATE', 'frames.bin', 'unique')
  })

  test('a member whose bytes run short of the size the ZIP directory declares is rejected', async () => {
    const bytes = zipStored(await setupMembers())
    const bin = (await setupMembers()).get('frames.bin')?.byteLength ?? 0
    setDeclaredSize(bytes, 'frames.bin', bin + 8)
    await expectRejected(bytes, 'EPISODE_ZIP_INVALID', '"frames.bin" unzips to', `declares ${bin + 8}`)
  })

  test('an archive declaring more than MAX_EPISODE_UNZIPPED_BYTES is refused before any member is inflated', async () => {
    const members = await setupMembers()
    // frames.bin's data is far shorter than it now declares: were it read, the size check would answer; the limit answers first.
    const bytes = zipStored(members)
    setDeclaredSize(bytes, 'frames.bin', MAX_EPISODE_UNZIPPED_BYTES)
    await expectRejected(bytes, 'EPISODE_ZIP_INVALID', 'ZIP bomb', String(MAX_EPISODE_UNZIPPED_BYTES))
  })

  test('a foreign member is refused by name, before its data is read', async () => {
    const members = await setupMembers()
    members.set('notes.txt', new Uint8Array([1, 2, 3]))
    const bytes = zipStored(members)
    // Its declared size no longer matches its data: reading it would be EPISODE_ZIP_INVALID.
    setDeclaredSize(bytes, 'notes.txt', 99)
    await expectRejected(bytes, 'EPISODE_MEMBER_EXTRA', 'notes.txt', 'not an episode member')
  })

  test('bytes that are not a ZIP are rejected', async () => {
    await expectRejected(new TextEncoder().encode('not a zip archive at all, just text'), 'EPISODE_ZIP_INVALID', 'not a readable ZIP')
  })

  test('observation whose name is not the SHA-256 of its bytes is rejected', async () => {
    const episode = await buildActiveEpisode({ capture: true })
    const name = [...episode.observations.keys()][0] ?? ''
    const png = episode.observations.get(name) ?? new Uint8Array(0)
    episode.observations.delete(name)
    episode.observations.set(`${'f'.repeat(64)}.png`, png)
    await expectRejected(await archiveOf(episode), 'EPISODE_OBSERVATION_INVALID', `observations/${'f'.repeat(64)}.png`, 'does not match the name')
  })

  test('observation that is not a PNG is rejected', async () => {
    const episode = await buildActiveEpisode({ capture: true })
    const name = [...episode.observations.keys()][0] ?? ''
    episode.observations.set(name, new Uint8Array(64).fill(7))
    await expectRejected(await archiveOf(episode), 'EPISODE_OBSERVATION_INVALID', name, 'PNG signature')
  })

  test('frames.bin one value short is a length mismatch', async () => {
    const members = await setupMembers()
    members.set('frames.bin', (members.get('frames.bin') ?? new Uint8Array(0)).subarray(8))
    await expectRejected(zipStored(await rehash(members)), 'EPISODE_FRAMES_LENGTH', 'frames.bin', '1 rows of stateSize 69')
  })

  test('a NaN in a state row of frames.bin is rejected with its row', async () => {
    const episode = await buildActiveEpisode({ mutate: e => { e.states[0]?.integration.fill(Number.NaN, 5, 6) } })
    await expectRejected(await archiveOf(episode), 'EPISODE_NONFINITE_STATE', 'frames.bin', 'kind state', 'offset 5')
  })

  test('the world model file must be present', async () => {
    const members = await setupMembers()
    members.delete('world/model.xml')
    await expectRejected(zipStored(await rehash(members)), 'EPISODE_MODEL_MISSING', 'world/model.xml')
  })
})

describe('decodeEpisode: frames.jsonl kinds and order', () => {
  async function withFrameLines(edit: (lines: string[]) => string[]): Promise<Uint8Array> {
    const members = await unzipMembers(await archiveOf(await buildActiveEpisode()))
    const lines = new TextDecoder().decode(members.get('frames.jsonl')).split('\n')
    members.set('frames.jsonl', new TextEncoder().encode(edit(lines).join('\n')))
    return zipStored(await rehash(members))
  }

  test('a trace row before a state row is rejected', async () => {
    await expectRejected(await withFrameLines(([a = '', b = '', c = '', d = '']) => [a, c, b, d]), 'EPISODE_FRAME_ORDER', 'frames.jsonl:3', 'follows a "trace" row')
  })

  test('a second initial row is rejected', async () => {
    await expectRejected(await withFrameLines(lines => lines.map((line, i) => i === 1 ? line.replace('"kind":"state"', '"kind":"initial"') : line)), 'EPISODE_FRAME_ORDER', 'frames.jsonl:2', 'exactly one initial row')
  })

  test('an unknown kind is rejected', async () => {
    await expectRejected(await withFrameLines(lines => lines.map((line, i) => i === 3 ? line.replace('"kind":"trace"', '"kind":"keyframe"') : line)), 'EPISODE_FRAME_ORDER', 'frames.jsonl:4', '"keyframe"')
  })

  test('state indices must run 1..n', async () => {
    await expectRejected(await withFrameLines(lines => lines.map((line, i) => i === 1 ? line.replace('"index":1', '"index":2') : line)), 'EPISODE_FRAME_ORDER', 'states[0]', 'indices 1..n')
  })
})

describe('decodeEpisode: manifest schema', () => {
  test('an unknown top-level manifest key is rejected', async () => {
    const bytes = zipStored(patchManifest(await setupMembers(), manifest => { manifest.extra = true }))
    await expectRejected(bytes, 'EPISODE_SCHEMA', 'manifest.json', 'unknown key "extra"')
  })

  test('an unknown nested key (runtime.physics) is rejected', async () => {
    const bytes = zipStored(patchManifest(await setupMembers(), manifest => {
      const runtime = manifest.runtime
      if (typeof runtime === 'object' && runtime !== null && 'physics' in runtime && typeof runtime.physics === 'object' && runtime.physics !== null) {
        Object.assign(runtime.physics, { friction: 1 })
      }
    }))
    await expectRejected(bytes, 'EPISODE_SCHEMA', 'manifest.json /runtime/physics', 'unknown key "friction"')
  })

  test.each([
    ['engine', '3.13.0'],
    ['format', 'other-episode'],
    ['version', 2],
    ['contract', '3dwebagent-runtime-2'],
    ['units', 'imperial'],
    ['stateSize', 0],
  ])('manifest.%s = %j is rejected', async (key, value) => {
    const bytes = zipStored(patchManifest(await setupMembers(), manifest => { manifest[key] = value }))
    await expectRejected(bytes, 'EPISODE_SCHEMA', `manifest.json /${key}`)
  })

  test('duplicate enabledTools are rejected', async () => {
    const bytes = zipStored(patchManifest(await setupMembers(), manifest => {
      manifest.runtime = { ...buildSetupEpisode().manifest.runtime, enabledTools: ['get_scene', 'get_scene'] }
    }))
    await expectRejected(bytes, 'EPISODE_SCHEMA', '/runtime/enabledTools', 'duplicate')
  })

  test('a duration outside (0, 60] is rejected', async () => {
    const runtime = buildSetupEpisode().manifest.runtime
    const bytes = zipStored(patchManifest(await setupMembers(), manifest => { manifest.runtime = { ...runtime, physics: { ...runtime.physics, duration: 61 } } }))
    await expectRejected(bytes, 'EPISODE_SCHEMA', '/runtime/physics/duration')
  })
})

/** Rewrites the uncompressed size that `name`'s central-directory entry declares (the local header is left as is). */
function setDeclaredSize(zip: Uint8Array, name: string, size: number): void {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  const wanted = new TextEncoder().encode(name)
  for (let at = 0; at + 46 <= zip.byteLength; at++) {
    if (view.getUint32(at, true) !== 0x02014b50 || view.getUint16(at + 28, true) !== wanted.length) continue
    if (wanted.every((byte, i) => zip[at + 46 + i] === byte)) {
      view.setUint32(at + 24, size, true)
      return
    }
  }
  throw new Error(`no central-directory entry for ${name}`)
}
