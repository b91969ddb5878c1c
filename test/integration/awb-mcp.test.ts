// `awb mcp` as an agent CLI sees it: a child process serving one episode over stdio (Node world) or Streamable
// HTTP (headless Chromium world), exporting the final episode when the client goes away or on SIGTERM.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeEpisode } from '../../src/episode/index.ts'
import { findChromium } from '../../src/shared/chromium.ts'
import { archiveOf, buildSetupEpisode, tinyPng } from '../helpers/episode-fixture.ts'
import { runCli } from '../helpers/run-cli.ts'
import { execute } from '../unit/mcp/mcp-fixture.ts'

const AWB = fileURLToPath(new URL('../../bin/awb.mjs', import.meta.url))
/** Opening Vite + Chromium + MuJoCo in the page takes a while on 2 cores. */
const BROWSER_TEST_TIMEOUT_MS = 180_000

let dir: string
let input: string
let inputBytes: Uint8Array
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'awb-mcp-'))
  input = join(dir, 'chair.episode.zip')
  inputBytes = await archiveOf(buildSetupEpisode())
  await writeFile(input, inputBytes)
  await writeFile(join(dir, 'page-1.png'), tinyPng(42))
})
afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

describe('awb mcp', () => {
  it('serves stdio (Node world) and writes <name>.final.episode.zip next to the input when the client leaves', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [AWB, 'mcp', '--episode', input, '--node', '--page', join(dir, 'page-1.png')], stderr: 'pipe' })
    const client = new Client({ name: 'test', version: '0' })
    await client.connect(transport)
    const { answer } = await execute(client, 'translate_objects', { ids: ['part-0002'], delta: [0, 0.5, 0] })
    expect(answer.status).toBe('Completed')
    const page = await client.callTool({ name: 'read_manual_page', arguments: { page: 1 } }) as CallToolResult
    expect(page.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' })
    const exited = new Promise<void>(resolve => transport.onclose = () => resolve())
    await client.close()
    await exited
    const final = await decodeEpisode(new Uint8Array(await readFile(join(dir, 'chair.final.episode.zip'))), { source: 'final' })
    expect(final.calls.map(call => call.name)).toEqual(['translate_objects'])
    expect(new Uint8Array(await readFile(input))).toEqual(inputBytes)
  })

  it('saves after every call: SIGKILL right after a move leaves an exported episode holding that move', async () => {
    const out = join(dir, 'killed-node-final.zip')
    const transport = new StdioClientTransport({ command: process.execPath, args: [AWB, 'mcp', '--episode', input, '--node', '--out', out], stderr: 'pipe' })
    const client = new Client({ name: 'test', version: '0' })
    await client.connect(transport)
    expect((await execute(client, 'translate_objects', { ids: ['part-0002'], delta: [0, 0.5, 0] })).answer.status).toBe('Completed')
    process.kill(transport.pid!, 'SIGKILL')
    const final = await decodeEpisode(new Uint8Array(await readFile(out)), { source: out })
    expect(final.calls.map(call => call.name)).toEqual(['translate_objects'])
    await client.close()
  })

  it('keeps serving and saving when the client closes its stderr (no EPIPE crash)', async () => {
    const out = join(dir, 'closed-stderr-final.zip')
    const transport = new StdioClientTransport({ command: process.execPath, args: [AWB, 'mcp', '--episode', input, '--node', '--out', out], stderr: 'pipe' })
    const client = new Client({ name: 'test', version: '0' })
    await client.connect(transport)
    expect(transport.stderr).toBeInstanceOf(Readable)
    if (transport.stderr instanceof Readable) transport.stderr.destroy()
    await execute(client, 'translate_objects', { ids: ['part-0001'], delta: [0.1, 0, 0] })
    // The next line goes to the closed stderr; the process must survive it and still answer.
    expect((await execute(client, 'get_scene')).answer.status).toBe('Completed')
    const exited = new Promise<void>(resolve => transport.onclose = () => resolve())
    await client.close()
    await exited
    const final = await decodeEpisode(new Uint8Array(await readFile(out)), { source: out })
    expect(final.calls.map(call => call.name)).toEqual(['translate_objects', 'get_scene'])
  })

  it('refuses to overwrite the input and an unknown surface (usage errors)', async () => {
    const same = await runCli(['mcp', '--episode', input, '--out', input, '--node'])
    expect(same.code).toBe(2)
    expect(same.stderr).toContain('is the input episode')
    const surface = await runCli(['mcp', '--episode', input, '--surface', 'everything', '--node'])
    expect(surface.code).toBe(2)
    expect(surface.stderr).toContain('--surface')
    const none = await runCli(['mcp'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('needs --episode')
  })

  it('--http serves the Node world on a loopback URL and exports on SIGTERM', async () => {
    const out = join(dir, 'node-http-final.zip')
    const child = spawn(process.execPath, [AWB, 'mcp', '--episode', input, '--http', '0', '--node', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      const [line] = await once(child.stdout.setEncoding('utf8'), 'data') as [string]
      const client = new Client({ name: 'test', version: '0' })
      await client.connect(new StreamableHTTPClientTransport(new URL((JSON.parse(line) as { url: string }).url)))
      await execute(client, 'get_scene')
      await client.close()
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      expect((await exited)[0]).toBe(0)
      const final = await decodeEpisode(new Uint8Array(await readFile(out)), { source: out })
      expect(final.calls.map(call => call.name)).toEqual(['get_scene'])
    } finally {
      child.kill('SIGKILL')
    }
  })

  it.runIf(findChromium() !== undefined)('serves stdio from headless Chromium and exports when stdin closes (Vite must not exit first)', async () => {
    const out = join(dir, 'browser-stdio-final.zip')
    const transport = new StdioClientTransport({ command: process.execPath, args: [AWB, 'mcp', '--episode', input, '--out', out], stderr: 'pipe' })
    const client = new Client({ name: 'test', version: '0' })
    await client.connect(transport)
    const { result } = await execute(client, 'capture_scene')
    const image = result.content[1]
    expect(image?.type === 'image' && Buffer.from(image.data, 'base64').subarray(1, 4).toString()).toBe('PNG')
    const exited = new Promise<void>(resolve => transport.onclose = () => resolve())
    await client.close()
    await exited
    const final = await decodeEpisode(new Uint8Array(await readFile(out)), { source: out })
    expect(final.calls.map(call => call.name)).toEqual(['capture_scene'])
    expect(final.observations.size).toBe(1)
  }, BROWSER_TEST_TIMEOUT_MS)

  it.runIf(findChromium() !== undefined)('answers initialize and tools/list before Chromium is up; calls wait for it; SIGKILL after a move keeps the move', async () => {
    const out = join(dir, 'killed-browser-final.zip')
    const child = spawn(process.execPath, [AWB, 'mcp', '--episode', input, '--http', '0', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', chunk => { stderr += String(chunk) })
    try {
      const [line] = await once(child.stdout.setEncoding('utf8'), 'data') as [string]
      const client = new Client({ name: 'test', version: '0' })
      await client.connect(new StreamableHTTPClientTransport(new URL((JSON.parse(line) as { url: string }).url)))
      const { tools } = await client.listTools()
      expect(tools.map(tool => tool.name)).toEqual(['list_pages', 'list_webmcp_tools', 'execute_webmcp_tool', 'read_manual_page'])
      // The handshake is done while the environment is still opening (its "open" line comes later).
      expect(stderr).not.toContain('open (headless Chromium')
      const { answer } = await execute(client, 'translate_objects', { ids: ['part-0001'], delta: [0.2, 0, 0] })
      expect(answer.status, stderr).toBe('Completed')
      expect(stderr).toContain('open (headless Chromium')
      const exited = once(child, 'exit')
      child.kill('SIGKILL')
      await exited
      const final = await decodeEpisode(new Uint8Array(await readFile(out)), { source: out })
      expect(final.calls.map(call => call.name)).toEqual(['translate_objects'])
    } finally {
      child.kill('SIGKILL')
    }
  }, BROWSER_TEST_TIMEOUT_MS)

  it.runIf(findChromium() !== undefined)('serves HTTP from headless Chromium (rendered captures) and exports on SIGTERM', async () => {
    const out = join(dir, 'http-final.zip')
    const child = spawn(process.execPath, [AWB, 'mcp', '--episode', input, '--http', '0', '--surface', 'direct', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', chunk => { stderr += String(chunk) })
    try {
      const [line] = await once(child.stdout.setEncoding('utf8'), 'data') as [string]
      const { url } = JSON.parse(line) as { url: string }
      const client = new Client({ name: 'test', version: '0' })
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      const { tools } = await client.listTools()
      expect(tools.map(tool => tool.name)).toContain('capture_scene')
      await client.callTool({ name: 'set_object_pose', arguments: { id: 'part-0001', position: [0, 0, 0.3] } })
      const capture = await client.callTool({ name: 'capture_scene', arguments: {} }) as CallToolResult
      expect(capture.isError, JSON.stringify(capture.content[0])).toBe(false)
      const image = capture.content[1]
      expect(image?.type === 'image' && Buffer.from(image.data, 'base64').subarray(1, 4).toString()).toBe('PNG')
      await client.close()
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      const [code] = await exited as [number | null]
      expect(code, stderr).toBe(0)
      const final = await decodeEpisode(new Uint8Array(await readFile(out)), { source: out })
      expect(final.calls.map(call => call.name)).toEqual(['set_object_pose', 'capture_scene'])
      expect(final.observations.size).toBe(1)
    } finally {
      child.kill('SIGKILL')
    }
  }, BROWSER_TEST_TIMEOUT_MS)
})
