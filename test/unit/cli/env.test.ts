import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { decodeEpisode, encodeEpisode } from '../../../src/episode/index.ts'
import { buildSetupEpisode } from '../../helpers/episode-fixture.ts'
import { runCli } from '../../helpers/run-cli.ts'

const workspaces: string[] = []
afterAll(async () => {
  for (const dir of workspaces) await rm(dir, { recursive: true, force: true })
})

async function workspace(calls: string): Promise<{ dir: string, episode: string, calls: string, out: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'awb-env-'))
  workspaces.push(dir)
  const episode = join(dir, 'in.episode.zip')
  await writeFile(episode, await encodeEpisode(buildSetupEpisode()))
  await writeFile(join(dir, 'calls.jsonl'), calls)
  return { dir, episode, calls: join(dir, 'calls.jsonl'), out: join(dir, 'out.episode.zip') }
}

const SCRIPT = [
  '{"name": "get_scene", "arguments": {}}',
  '',
  '{"name": "translate_objects", "arguments": {"ids": ["part-0001"], "delta": [0.1, 0, 0]}}',
  '{"name": "capture_scene"}',
  '{"name": "get_object", "arguments": {"id": "missing"}}',
].join('\n')

describe('awb env run', () => {
  it('runs every call as the agent, prints one line each and writes the export atomically', async () => {
    const ws = await workspace(SCRIPT)
    const input = await readFile(ws.episode)
    const result = await runCli(['env', 'run', '--episode', ws.episode, '--calls', ws.calls, '--out', ws.out])
    expect(result.code).toBe(0)
    const lines = result.stdout.trim().split('\n')
    expect(lines).toHaveLength(4)
    expect(lines[1]).toBe('translate_objects: {"status":"completed","physics":"disabled","index":1}')
    expect(lines[2]).toBe('capture_scene: {"error":"Unsupported capability: capture_scene","code":"unsupported_capability"}')
    expect(result.stderr).toContain(`wrote ${ws.out}`)
    const exported = await decodeEpisode(await readFile(ws.out))
    expect(exported.manifest.lifecycle).toBe('active')
    expect(exported.calls.map(call => [call.name, call.status])).toEqual([
      ['get_scene', 'completed'], ['translate_objects', 'completed'], ['capture_scene', 'error'], ['get_object', 'error'],
    ])
    expect(exported.states[0]?.integration[1]).toBe(0.1)
    expect(await readFile(ws.episode)).toEqual(input)
    expect((await readdir(ws.dir)).filter(name => name.endsWith('.tmp'))).toEqual([])
  })

  it('--json prints one JSON object per call', async () => {
    const ws = await workspace(SCRIPT)
    const result = await runCli(['env', 'run', '--episode', ws.episode, '--calls', ws.calls, '--out', ws.out, '--json'])
    expect(result.code).toBe(0)
    const rows = result.stdout.trim().split('\n').map(line => JSON.parse(line))
    expect(rows[3]).toEqual({ line: 5, name: 'get_object', output: { error: 'Unknown object: missing', code: 'invalid_argument' } })
  })

  it('names the line of a bad calls file and writes nothing (exit 2)', async () => {
    const ws = await workspace('{"name": "get_scene"}\n{"name": \n')
    const result = await runCli(['env', 'run', '--episode', ws.episode, '--calls', ws.calls, '--out', ws.out])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/line 2: not valid JSON/)
    const shape = await workspace('{"tool": "get_scene"}\n')
    const bad = await runCli(['env', 'run', '--episode', shape.episode, '--calls', shape.calls, '--out', shape.out])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/line 1: expected \{"name": string, "arguments": object\}/)
    expect(await readdir(ws.dir)).not.toContain('out.episode.zip')
  })

  it('renders capture_scene in headless Chromium with --render and stores the observation in the export', async () => {
    const ws = await workspace(SCRIPT)
    const result = await runCli(['env', 'run', '--episode', ws.episode, '--calls', ws.calls, '--out', ws.out, '--render', '--json'])
    expect(result.code).toBe(0)
    const rows = result.stdout.trim().split('\n').map(line => JSON.parse(line))
    expect(rows.map(row => row.name)).toEqual(['get_scene', 'translate_objects', 'capture_scene', 'get_object'])
    const image = rows[2].output.content[0]
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' })
    expect(Buffer.from(image.data, 'base64').subarray(1, 4).toString()).toBe('PNG')
    const exported = await decodeEpisode(await readFile(ws.out))
    expect(exported.observations.size).toBe(1)
    expect(exported.calls[2]?.producer.renderer).toMatch(/^three-r\d+\/webgl2$/)
  }, 120_000)

  it('refuses a missing flag and --out equal to the input (exit 2)', async () => {
    const ws = await workspace(SCRIPT)
    expect((await runCli(['env', 'run', '--episode', ws.episode, '--calls', ws.calls])).code).toBe(2)
    const same = await runCli(['env', 'run', '--episode', ws.episode, '--calls', ws.calls, '--out', ws.episode])
    expect(same.code).toBe(2)
    expect(same.stderr).toMatch(/is the input episode/)
    expect((await runCli(['env', 'walk'])).stderr).toMatch(/unknown action "walk"/)
  })
})
