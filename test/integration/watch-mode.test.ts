// Watch mode as the inner loop, in Vitest's UI: `vitest watch --ui` on one sample with a page agent module, then an edit
// of the module. The edit reruns the block (the agent is no import of the test, so the plugin names its bundle's files to
// Vitest's watcher), and the rerun is a run of its own: a new run folder, a fresh attempt, the edited agent's calls
// recorded. A real Chromium opens the UI after each run and finds the sample's figures, final capture, reference page
// and timeline (attachments Node wrote from its record); a socket to the UI's API from another origin is refused.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Browser } from 'playwright'
import { afterAll, describe, expect, it } from 'vitest'
import { findChromium } from '../../src/shared/chromium.ts'
import { vitestCli } from '../helpers/vitest-cli.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
/** A manual-book block: its samples have reference pages to show. */
const BLOCK = 'ikea-manualbook'
const SAMPLE = 'Chair/logrelm'
/** A run slower than this prints its phases and Vitest's browser lines (usually ~15 s; in the full suite, now and then, 194 s). */
const SLOW_RUN_NOTE_S = 60
/** Set to a folder to keep the UI's screenshots (the closing notes show them). */
const SCREENSHOTS = process.env.AWB_UI_SCREENSHOTS

/**
 * A page agent that lists the objects, then makes the given calls on the first object (`get_object` with its id,
 * `translate_objects` moving it 0.5 along x, which changes the score), and answers at once.
 */
function agentSource(calls: readonly ('get_object' | 'translate_objects')[]): string {
  const call = (name: string) => name === 'get_object'
    ? `    await tools.call('get_object', { id: objects[0].id })`
    : `    await tools.call('translate_objects', { ids: [objects[0].id], delta: [0.5, 0, 0] })`
  return [
    `import { defineAgent } from 'assembly-world-bench/agent'`,
    `export default defineAgent({`,
    `  name: 'watch-${calls.length + 1}',`,
    `  async run({ tools }) {`,
    `    const { objects } = JSON.parse(await tools.call('list_objects', {}))`,
    ...calls.map(call),
    `    return { finalAnswer: JSON.stringify({ status: 'completed', summary: 'watch', checked_connections: [], uncertainties: [] }), usage: null, costUsd: null, model: null }`,
    `  },`,
    `})`,
    '',
  ].join('\n')
}

let dir: string | undefined
/** The watching Vitest: killed with its process group here too, so a test that times out leaves nothing running. */
let watcher: ChildProcess | undefined
let browser: Browser | undefined
afterAll(async () => {
  await browser?.close()
  if (watcher?.pid !== undefined && watcher.exitCode === null && watcher.signalCode === null) process.kill(-watcher.pid, 'SIGKILL')
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

/** What Vitest's UI shows of the sample's test: its report panel's text and the sources of its images. */
async function uiReport(url: string, shot: string): Promise<{ text: string; images: string[] }> {
  browser ??= await chromium.launch({ executablePath: findChromium() })
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
  try {
    await page.goto(url)
    await page.getByText(SAMPLE, { exact: true }).first().click()
    await page.getByText('Test Annotations').waitFor()
    await page.locator('img[src^="data:image/svg+xml"]').first().waitFor()
    if (SCREENSHOTS !== undefined) {
      await mkdir(SCREENSHOTS, { recursive: true })
      await page.screenshot({ path: join(SCREENSHOTS, `${shot}-figures.png`) })
      await page.locator('img[src^="data:image/png"]').first().scrollIntoViewIfNeeded()
      await page.screenshot({ path: join(SCREENSHOTS, `${shot}-pictures.png`) })
      await page.locator('img[src^="data:image/svg+xml"]').first().scrollIntoViewIfNeeded()
      await page.screenshot({ path: join(SCREENSHOTS, `${shot}-timeline.png`) })
    }
    const images = await page.locator('img').evaluateAll(elements => elements.map(element => (element as HTMLImageElement).src.slice(0, 30)))
    return { text: await page.locator('body').innerText(), images }
  } finally {
    await page.close()
  }
}

/**
 * Asks to open Vitest's API socket as a page of `origin` would (a websocket upgrade with the token every tester page
 * carries): whether the server switched protocols.
 */
async function apiSocketOpens(uiUrl: string, origin: string): Promise<boolean> {
  const url = new URL(uiUrl)
  // Vitest 5 prints the token in the UI's address; 4.1 only writes it into the UI's page.
  const token = url.searchParams.get('token') ?? /VITEST_API_TOKEN\s*=\s*"([^"]+)"/.exec(await (await fetch(uiUrl)).text())?.[1] ?? ''
  return await new Promise((done) => {
    const upgrade = request({
      host: url.hostname,
      port: url.port,
      path: `/__vitest_api__?token=${encodeURIComponent(token)}`,
      headers: { connection: 'Upgrade', upgrade: 'websocket', origin, 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64') },
    })
    upgrade.on('upgrade', (_response, socket) => { socket.destroy(); done(true) })
    upgrade.on('response', (response) => { response.resume(); done(false) })
    upgrade.on('error', () => done(false))
    upgrade.end()
  })
}

describe('watch mode', () => {
  it('reruns the block when the agent module changes, in a new run folder with a fresh attempt', async () => {
    dir = await mkdtemp(join(tmpdir(), 'awb-watch-'))
    const runs = join(dir, 'runs')
    const agent = join(dir, 'agent.ts')
    await writeFile(agent, agentSource([]))
    const child = watcher = spawn(process.execPath, vitestCli('watch', ['--ui', '--open=false', '--project', BLOCK, '-t', SAMPLE]), {
      cwd: ROOT,
      // Vitest's browser pool, Playwright provider and browser API say, with timestamps, what they wait for (a tester
      // page that connects to the API says so; see SLOW_RUN_NOTE_S).
      env: { ...process.env, DEBUG: 'vitest:browser:pool,vitest:browser:playwright,vitest:browser:api', AWB_AGENT: agent, AWB_RUNS: runs, GITHUB_STEP_SUMMARY: '', FORCE_COLOR: '0', NO_COLOR: '1', AWB_REPORT: '0' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    })
    let output = ''
    const waiters: (() => void)[] = []
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      for (const wake of waiters.splice(0)) wake()
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    const closed = new Promise<void>(done => child.on('close', () => done()))
    /** Resolves once the output holds `count` lines of a finished watch run (the summary written, run.json closed). */
    const runsEnded = async (count: number) => {
      while ((output.match(/Waiting for file changes/g) ?? []).length < count) {
        if (child.exitCode !== null) throw new Error(`vitest exited:\n${output}`)
        await new Promise<void>(wake => waiters.push(wake))
      }
    }
    const reports: { text: string; images: string[] }[] = []
    let uiUrl = ''
    const began = performance.now()
    const timeline: string[] = []
    const reached = (phase: string) => timeline.push(`${new Date().toISOString()} (${((performance.now() - began) / 1000).toFixed(1)} s) ${phase}`)
    try {
      await runsEnded(1)
      reached('the first run ended')
      expect(output).toMatch(/awb: wrote /)
      uiUrl = /UI started at (http:\/\/\S+)/.exec(output)?.[1] ?? ''
      expect(uiUrl, output).toMatch(/\/__vitest__\//)
      reports.push(await uiReport(uiUrl, 'first-run'))
      reached('the UI showed the first run')
      // A tester page lives on its block's browser server: another origin than the UI's. Its socket is refused.
      expect(await apiSocketOpens(uiUrl, 'http://localhost:1')).toBe(false)
      expect(await apiSocketOpens(uiUrl, new URL(uiUrl).origin)).toBe(true)
      await writeFile(agent, agentSource(['translate_objects']))
      reached('the agent was edited')
      await runsEnded(2)
      reached('the rerun ended')
      reports.push(await uiReport(uiUrl, 'after-edit'))
      reached('the UI showed the rerun')
    } finally {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL')
      await closed
      // Not a time limit: a note for the log. Inside the full suite this test now and then takes 194 s instead of ~15 s
      // and passes (the block's first tester page never connected, and Vitest made a new session after 180 s); the
      // phases and Vitest's timestamped browser lines say where the next such run waited.
      if (performance.now() - began > SLOW_RUN_NOTE_S * 1000) {
        const browserLines = output.split('\n').filter(line => line.includes('vitest:browser'))
        console.warn(`watch mode took over ${SLOW_RUN_NOTE_S} s:\n${timeline.join('\n')}\n${browserLines.join('\n')}`)
      }
    }
    const folders = (await readdir(runs)).sort()
    expect(folders, output).toHaveLength(2)
    const attempts = await Promise.all(folders.map(async (folder) => {
      const run = JSON.parse(await readFile(join(runs, folder, 'run.json'), 'utf8')) as { status: string }
      const sampleDir = join(runs, folder, 'blocks', BLOCK, 'samples', SAMPLE.replace('/', '--'))
      const result = JSON.parse(await readFile(join(sampleDir, 'result.json'), 'utf8')) as Record<string, unknown>
      const conversation = (await readFile(join(sampleDir, 'conversation.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as { type: string; name?: string })
      const summary = JSON.parse(await readFile(join(runs, folder, 'summary.json'), 'utf8')) as unknown
      return { run, result, calls: conversation.filter(entry => entry.type === 'tool_call').map(entry => entry.name), summary }
    }))
    const [first, second] = attempts
    expect(first!.run.status, output).toBe('completed')
    expect(second!.run.status, output).toBe('completed')
    expect(first!.calls).toEqual(['list_objects'])
    // The second run attempted the sample itself, with the edited agent: not the first run's row reported again.
    expect(second!.calls).toEqual(['list_objects', 'translate_objects'])
    expect(first!.result).toMatchObject({ status: 'completed', tool_calls: 1 })
    expect(second!.result).toMatchObject({ status: 'completed', tool_calls: 2 })
    expect(second!.summary).toBeDefined()
    // A new score: the edited agent moved a part.
    const scd = (attempt: typeof first) => (attempt!.result.metrics as { SCD: number }).SCD
    expect(scd(second)).not.toBe(scd(first))

    // The UI shows Node's account of each attempt: its figures, the final scene, the first manual page and the
    // timeline, as images; after the edit, the new attempt's.
    expect(output).toContain("awb integrity: a connection to Vitest's API (the UI's socket) from the foreign origin http://localhost:1 was refused")
    const [before, after] = reports
    expect(before!.text).toMatch(/tool_calls\s+1\b/)
    expect(after!.text).toMatch(/tool_calls\s+2\b/)
    expect(before!.text).toContain(`SCD\n${scd(first)}`)
    expect(after!.text).toContain(`SCD\n${scd(second)}`)
    for (const report of reports) {
      expect(report.text).toMatch(/\bSR\s+[01]\b/)
      expect(report.text).toMatch(/final_capture\s+the final scene/)
      expect(report.text).toMatch(/reference_page\s+reference page 1 of 4/)
      expect(report.text).toMatch(/timeline\s+\d+ tool calls? over/)
      expect(report.images.filter(src => src.startsWith('data:image/png;base64,'))).toHaveLength(2)
      expect(report.images.filter(src => src.startsWith('data:image/svg+xml;base64,'))).toHaveLength(1)
    }
  }, 240_000)
})
