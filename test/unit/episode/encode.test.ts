import { describe, expect, test } from 'vitest'
import { decodeEpisode, encodeEpisode, sha256Hex } from '../../../src/episode/index.ts'
import { archiveOf, buildActiveEpisode, buildSetupEpisode, rehash, unzipMembers, zipStored } from '../../helpers/episode-fixture.ts'

interface CentralEntry {
  name: string
  versionMadeBy: number
  method: number
  dosTime: number
  dosDate: number
  mode: number
  localOffset: number
}

/** Reads the central directory of a ZIP without any ZIP library, so the assertions see the raw bytes. */
function centralEntries(bytes: Uint8Array): CentralEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let eocd = bytes.length - 22
  while (view.getUint32(eocd, true) !== 0x06054b50) eocd--
  const count = view.getUint16(eocd + 10, true)
  let at = view.getUint32(eocd + 16, true)
  const entries: CentralEntry[] = []
  for (let i = 0; i < count; i++) {
    const nameLength = view.getUint16(at + 28, true)
    entries.push({
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      versionMadeBy: view.getUint16(at + 4, true),
      method: view.getUint16(at + 10, true),
      dosTime: view.getUint16(at + 12, true),
      dosDate: view.getUint16(at + 14, true),
      mode: view.getUint32(at + 38, true) >>> 16,
      localOffset: view.getUint32(at + 42, true),
    })
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true)
  }
  return entries
}

describe('encodeEpisode: deterministic archives', () => {
  test('members are sorted by name (manifest.json included), deflated, dated 1980-01-01 00:00:00, mode 0644, UNIX', async () => {
    const bytes = await encodeEpisode(await buildActiveEpisode({ capture: true }))
    const entries = centralEntries(bytes)
    const names = entries.map(entry => entry.name)
    expect(names).toEqual([...names].sort())
    expect(names).toContain('manifest.json')
    expect(names.filter(name => name.endsWith('/'))).toEqual([])
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    for (const entry of entries) {
      expect(entry).toMatchObject({ method: 8, dosTime: 0x0000, dosDate: 0x0021, mode: 0o100644 })
      expect(entry.versionMadeBy >> 8).toBe(3)
      // The local header repeats the DOS time and date; both must be the fixed 1980-01-01 00:00:00.
      expect(view.getUint32(entry.localOffset, true)).toBe(0x04034b50)
      expect(view.getUint16(entry.localOffset + 10, true)).toBe(0x0000)
      expect(view.getUint16(entry.localOffset + 12, true)).toBe(0x0021)
    }
  })

  test('re-encoding an archive we wrote is byte-identical', async () => {
    const first = await encodeEpisode(await buildActiveEpisode({ capture: true }))
    const second = await encodeEpisode(await decodeEpisode(first))
    expect(second).toEqual(first)
  })

  test('encoding the same episode twice gives the same bytes', async () => {
    const episode = await buildActiveEpisode()
    expect(await encodeEpisode(episode)).toEqual(await encodeEpisode(episode))
  })

  test('a setup episode has 0-byte calls.jsonl and events.jsonl hashed as the empty SHA-256', async () => {
    const members = await unzipMembers(await encodeEpisode(buildSetupEpisode()))
    expect(members.get('calls.jsonl')?.byteLength).toBe(0)
    expect(members.get('events.jsonl')?.byteLength).toBe(0)
    const manifest: unknown = JSON.parse(new TextDecoder().decode(members.get('manifest.json')))
    expect(manifest).toMatchObject({ hashes: { 'calls.jsonl': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' } })
    expect([...members.keys()].sort()).toEqual(['calls.jsonl', 'events.jsonl', 'frames.bin', 'frames.jsonl', 'manifest.json', 'world/meshes/part-0001.obj', 'world/meshes/part-0002.obj', 'world/model.xml'])
  })

  test('frames.jsonl lines are joined by \\n with no trailing newline; frames.bin is little-endian float64', async () => {
    const members = await unzipMembers(await encodeEpisode(await buildActiveEpisode()))
    const text = new TextDecoder().decode(members.get('frames.jsonl'))
    expect(text.endsWith('\n')).toBe(false)
    expect(text.split('\n').map(line => JSON.parse(line).kind)).toEqual(['initial', 'state', 'trace', 'trace'])
    expect(text.split('\n')[0]).toBe(`{"camera":${JSON.stringify(buildSetupEpisode().initial.camera)},"groupCounter":0,"groups":[],"index":0,"kind":"initial"}`)
    const bin = members.get('frames.bin') ?? new Uint8Array(0)
    expect(bin.byteLength).toBe(4 * 69 * 8)
    // Initial row, offset 4 = part-0001 quaternion w = 1.0 = 0x3FF0000000000000 little-endian.
    expect(Array.from(bin.subarray(32, 40))).toEqual([0, 0, 0, 0, 0, 0, 0xf0, 0x3f])
    // State row 1, offset 1 = part-0001 x = 0.1.
    expect(new DataView(bin.buffer, bin.byteOffset).getFloat64((69 + 1) * 8, true)).toBe(0.1)
  })

  test('stale manifest.hashes are discarded and recomputed', async () => {
    const episode = buildSetupEpisode({ manifest: { hashes: { 'frames.bin': '0'.repeat(64), 'gone.txt': '1'.repeat(64) } } })
    const decoded = await decodeEpisode(await encodeEpisode(episode))
    const members = await unzipMembers(await encodeEpisode(episode))
    expect(Object.keys(decoded.manifest.hashes)).toEqual([...members.keys()].filter(name => name !== 'manifest.json').sort())
    expect(decoded.manifest.hashes['frames.bin']).toBe(await sha256Hex(members.get('frames.bin') ?? new Uint8Array(0)))
  })
})

describe('round trips', () => {
  test('decode → encode → decode is the identity', async () => {
    const first = await decodeEpisode(await archiveOf(await buildActiveEpisode({ capture: true })))
    const second = await decodeEpisode(await encodeEpisode(first))
    expect(second).toEqual(first)
    expect(second.states[0]?.integration).toBeInstanceOf(Float64Array)
  })

  test('float64 state values survive bit-exactly', async () => {
    const awkward = [Math.PI, -0.1 - 0.2, 1e-300, Number.MIN_VALUE, 2 ** 53 + 2, -1e308]
    const episode = await buildActiveEpisode({ mutate: e => { e.states[0]?.integration.set(awkward, 8) } })
    const decoded = await decodeEpisode(await encodeEpisode(episode))
    expect(Array.from(decoded.states[0]?.integration.subarray(8, 14) ?? [])).toEqual(awkward)
  })

  test('another producer\'s archive: world bytes and member contents survive, zip bytes need not', async () => {
    const members = await unzipMembers(await archiveOf(await buildActiveEpisode()))
    // A foreign writer: CRLF and non-UTF-8 bytes in a world file, pretty-printed JSONL rows with other key orders.
    const odd = new Uint8Array([0x76, 0x20, 0x30, 0x0d, 0x0a, 0xff, 0xfe, 0x00])
    members.set('world/meshes/odd.bin', odd)
    const calls = new TextDecoder().decode(members.get('calls.jsonl')).split('\n').map(line => JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(line)).reverse())))
    members.set('calls.jsonl', new TextEncoder().encode(`${calls.join('\n')}\n`))
    const foreign = zipStored([...(await rehash(members))].reverse())
    const first = await decodeEpisode(foreign)
    const reencoded = await encodeEpisode(first)
    const second = await decodeEpisode(reencoded)
    expect(second.world.get('world/meshes/odd.bin')).toEqual(odd)
    expect(second.world).toEqual(first.world)
    expect(second.calls).toEqual(first.calls)
    expect({ ...second.manifest, hashes: {} }).toEqual({ ...first.manifest, hashes: {} })
    expect(reencoded).not.toEqual(foreign)
  })
})
