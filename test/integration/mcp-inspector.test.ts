// The MCP Inspector CLI (every pinned version, installed on demand like the agent CLIs) against `awb mcp` over stdio
// and Streamable HTTP, each on headless Chromium: a real third-party client lists the benchmark tools, moves a part,
// and the exported episode holds the move.
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeEpisode } from '../../src/episode/index.ts'
import { findChromium } from '../../src/shared/chromium.ts'
import { ensureAgentCli, PINNED_CLIS, type InstalledCli } from '../helpers/agent-cli-install.ts'
import { archiveOf, buildSetupEpisode } from '../helpers/episode-fixture.ts'

const AWB = fileURLToPath(new URL('../../bin/awb.mjs', import.meta.url))
const INSTALL_TIMEOUT_MS = 600_000
/** Vite + Chromium + MuJoCo in the page on 2 cores, plus the Inspector's own start. */
const TEST_TIMEOUT_MS = 180_000
/** The move, as the Inspector passes it: `--tool-arg` values are parsed as JSON, so `input` is a JSON string literal. */
const MOVE_ARGS = ['pageId=1', 'toolName=translate_objects', `input=${JSON.stringify(JSON.stringify({ ids: ['part-0001'], delta: [0.2, 0, 0] }))}`]

const inspectors = new Map<string, InstalledCli>()
let dir: string
let input: string
beforeAll(async () => {
  for (const version of PINNED_CLIS.inspector.versions) inspectors.set(version, await ensureAgentCli('inspector', version))
  dir = await mkdtemp(join(tmpdir(), 'awb-inspector-'))
  input = join(dir, 'chair.episode.zip')
  await writeFile(input, await archiveOf(buildSetupEpisode()))
}, INSTALL_TIMEOUT_MS)
afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

function runInspector(version: string, args: string[]): Promise<{ code: number, stdout: string, stderr: string }> {
  const inspector = inspectors.get(version)!
  return new Promise(done => {
    // A HOME of its own: Inspector 2.x keeps a catalog of servers in ~/.mcp-inspector.
    execFile(inspector.bin, ['--cli', ...args], { timeout: TEST_TIMEOUT_MS, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, HOME: dir } }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr })
    })
  })
}

/** The result is the JSON object the Inspector prints (1.0.3 prints a deprecation banner before it). */
function resultOf(stdout: string): { content: { type: string, text?: string }[], tools?: { name: string }[], isError?: boolean } {
  return JSON.parse(stdout.slice(stdout.indexOf('{'))) as ReturnType<typeof resultOf>
}

describe.runIf(findChromium() !== undefined).each(PINNED_CLIS.inspector.versions)('MCP Inspector CLI %s against awb mcp', (version) => {
  it('stdio: lists the four benchmark tools, and a move is in the episode exported when it disconnects', async () => {
    const out = join(dir, `stdio-final-${version}.zip`)
    const server = [process.execPath, AWB, 'mcp', '--episode', input, '--out', out]
    const listed = await runInspector(version, [...server, '--method', 'tools/list'])
    expect(listed.code, listed.stderr).toBe(0)
    expect(resultOf(listed.stdout).tools?.map(tool => tool.name)).toEqual(['list_pages', 'list_webmcp_tools', 'execute_webmcp_tool', 'read_manual_page'])
    const moved = await runInspector(version, [...server, '--method', 'tools/call', '--tool-name', 'execute_webmcp_tool', '--tool-arg', ...MOVE_ARGS])
    expect(moved.code, moved.stderr).toBe(0)
    const answer = JSON.parse(resultOf(moved.stdout).content[0]!.text!) as { status: string }
    expect(answer.status).toBe('Completed')
    const final = await decodeEpisode(new Uint8Array(await readFile(out)), { source: out })
    expect(final.calls.map(call => call.name)).toEqual(['translate_objects'])
  }, TEST_TIMEOUT_MS)

  it('Streamable HTTP: list_pages shows chrome-devtools-mcp\'s text, a move is saved before SIGTERM', async () => {
    const out = join(dir, `http-final-${version}.zip`)
    const child = spawn(process.execPath, [AWB, 'mcp', '--episode', input, '--http', '0', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      const [line] = await once(child.stdout.setEncoding('utf8'), 'data') as [string]
      const { url } = JSON.parse(line) as { url: string }
      const http = [url, '--transport', 'http']
      const pagesListed = await runInspector(version, [...http, '--method', 'tools/call', '--tool-name', 'list_pages'])
      expect(pagesListed.code, pagesListed.stderr).toBe(0)
      expect(resultOf(pagesListed.stdout).content).toEqual([{ type: 'text', text: '## Pages\n1: AssemblyWorldBench environment (awb://episode/chair.episode.zip) [selected]' }])
      const moved = await runInspector(version, [...http, '--method', 'tools/call', '--tool-name', 'execute_webmcp_tool', '--tool-arg', ...MOVE_ARGS])
      expect(moved.code, moved.stderr).toBe(0)
      // Saved after the call already, before any signal.
      const saved = await decodeEpisode(new Uint8Array(await readFile(out)), { source: out })
      expect(saved.calls.map(call => call.name)).toEqual(['translate_objects'])
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      expect((await exited)[0]).toBe(0)
    } finally {
      child.kill('SIGKILL')
    }
  }, TEST_TIMEOUT_MS)
})
