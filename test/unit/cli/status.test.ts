// `awb status` after a `kill -9`: every sample of the package is listed (those that never started as pending), and a
// run whose process is dead shows the time up to its last record, not a clock that keeps running.
import { readFile, readdir, rm, utimes, writeFile, mkdtemp } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, afterAll, describe, expect, it, vi } from 'vitest'
import { run as statusCommand } from '../../../src/cli/commands/status.ts'
import { createPackageFixture, type PackageFixture } from '../../helpers/package-fixture.ts'
import { runCli } from '../../helpers/run-cli.ts'
import { COMPLETED_RESULT, writeRun } from '../../helpers/run-fixture.ts'

/** Above every Linux `pid_max` (2^22): no process has it, so the run's writer reads as dead. */
const DEAD_PID = 2 ** 30
const STARTED_AT = '2026-01-01T00:00:00.000Z'
/** The last record of the killed run: 125 s after its start. */
const LAST_RECORD_MS = Date.parse(STARTED_AT) + 125_000

let pkg: PackageFixture
const dirs: string[] = []
beforeAll(async () => {
  pkg = await createPackageFixture({ samplesPerBlock: 2 })
})
afterAll(async () => {
  await pkg?.cleanup()
})
afterEach(async () => {
  vi.restoreAllMocks()
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

/**
 * A run killed with `kill -9` three samples in: run.json still `running`, its process gone, every file last written
 * at LAST_RECORD_MS, and only the started samples have folders (as the harness creates them on start).
 */
async function killedRun(runJson: Record<string, unknown> = { benchmark: { local: pkg.root, frozen_release: false, revision: null } }): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'awb-status-'))
  dirs.push(root)
  const dir = await writeRun({
    dir: join(root, '2026-01-01T000000.000Z-00000000'),
    attempts: [
      { block: 'partnet-none', sampleId: 'sample-00' },
      { block: 'partnet-none', sampleId: 'sample-01', result: { ...COMPLETED_RESULT, status: 'failed' } },
      { block: 'ikea-manualbook', sampleId: 'sample-00', result: { status: 'running', started_at: '2026-01-01T00:01:00.000Z' } },
    ],
  })
  const path = join(dir, 'run.json')
  const json = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>
  await writeFile(path, `${JSON.stringify({ ...json, status: 'running', started_at: STARTED_AT, process: { pid: DEAD_PID, host: hostname() }, ...runJson }, null, 2)}\n`)
  await dateEveryFile(dir, LAST_RECORD_MS)
  return dir
}

async function dateEveryFile(dir: string, ms: number): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) await utimes(join(entry.parentPath, entry.name), ms / 1000, ms / 1000)
  }
}

interface StatusJson {
  status: string
  samples: Record<string, string>
  counts: Record<string, number>
  running: boolean
  elapsed_seconds: number | null
  last_record_at?: string
  package_problem?: string
}

async function statusJson(args: unknown[]): Promise<StatusJson> {
  let stdout = ''
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => { stdout += String(chunk); return true })
  expect(await statusCommand(args)).toBe(0)
  vi.restoreAllMocks()
  return JSON.parse(stdout) as StatusJson
}

describe('awb status of a killed run', () => {
  it('lists every sample of the recorded package, the never-started ones as pending', async () => {
    const dir = await killedRun()
    const { code, stdout } = await runCli(['status', dir, '--json'])
    expect(code).toBe(0)
    const json = JSON.parse(stdout) as StatusJson
    expect(Object.keys(json.samples)).toHaveLength(10)
    expect(json.samples).toMatchObject({ 'partnet-none/sample-00': 'completed', 'partnet-none/sample-01': 'failed', 'ikea-manualbook/sample-00': 'interrupted', 'ikea-manualbook/sample-01': 'pending', 'fantastic-breaks-none/sample-01': 'pending' })
    expect(json.counts).toEqual({ completed: 1, failed: 1, interrupted: 1, pending: 7 })
    // The table counts them too: 10 samples over the five blocks.
    const table = (await runCli(['status', dir])).stdout
    const rows = table.split('\n').filter(line => /^(partnet|ikea|assemblybench|fantastic)/.test(line))
    expect(rows).toHaveLength(5)
    const total = rows.flatMap(row => row.trim().split(/\s+/).slice(1, 7).map(Number)).reduce((a, b) => a + b, 0)
    expect(total).toBe(10)
  })

  it('shows the elapsed time up to the last record and says the run is not running', async () => {
    const dir = await killedRun()
    const json = JSON.parse((await runCli(['status', dir, '--json'])).stdout) as StatusJson
    expect(json).toMatchObject({ status: 'interrupted', running: false, elapsed_seconds: 125, last_record_at: new Date(LAST_RECORD_MS).toISOString() })
    const first = (await runCli(['status', dir])).stdout.split('\n')[0]
    expect(first).toBe(`run ${dir}: interrupted, not running (its process is gone; continue it with AWB_RESUME), 125 s up to its last record (${new Date(LAST_RECORD_MS).toISOString()})`)
  })

  it('takes the package from options.benchmark when benchmark.local is absent, and --benchmark over both', async () => {
    const dir = await killedRun({ options: { benchmark: pkg.root } })
    expect(Object.keys((await statusJson([dir, { json: true }])).samples)).toHaveLength(10)
    const gone = await killedRun({ benchmark: { local: join(pkg.root, 'moved-away') } })
    const withFlag = await statusJson([gone, { json: true, benchmark: pkg.root }])
    expect(Object.keys(withFlag.samples)).toHaveLength(10)
    expect(withFlag.package_problem).toBeUndefined()
  })

  it('says why never-started samples are missing when the recorded package is gone', async () => {
    const dir = await killedRun({ benchmark: { local: join(pkg.root, 'moved-away') } })
    const json = await statusJson([dir, { json: true }])
    expect(Object.keys(json.samples)).toHaveLength(3)
    expect(json.package_problem).toMatch(/moved-away.*benchmark\.json cannot be read.*pass --benchmark <package-dir>/)
    expect((await runCli(['status', dir])).stdout).toContain('samples that never started are not counted: ')
  })
})

describe('awb status of a run whose pages were lost', () => {
  it('names each sample whose world Node rebuilt, and why one could not be rebuilt', async () => {
    const root = await mkdtemp(join(tmpdir(), 'awb-status-'))
    dirs.push(root)
    const lost = { status: 'failed', execution: { status: 'timeout', error: 'the page stopped responding' }, duration_seconds: 70, tool_calls: 4 }
    const dir = await writeRun({
      dir: join(root, '2026-01-01T000000.000Z-00000001'),
      attempts: [
        { block: 'partnet-none', sampleId: 'sample-00', result: { ...lost, archive: { status: 'saved', sha256: null, calls: 5, error: null, rebuild: { status: 'rebuilt', from: 'conversation.jsonl', tool_calls: 4, replayed: 4 } } } },
        { block: 'partnet-none', sampleId: 'sample-01', result: { ...lost, archive: { status: 'not_saved', sha256: null, calls: null, error: 'lost', rebuild: { status: 'not_rebuilt', reason: 'line 3: a tool_call without its tool_result', tool_calls: 2 } } } },
        { block: 'ikea-manualbook', sampleId: 'sample-00' },
      ],
    })
    const text = (await runCli(['status', dir, '--benchmark', pkg.root])).stdout
    expect(text).toContain('rebuilt partnet-none / sample-00: its page was lost, so Node rebuilt its world from the 4 tool call(s) it recorded and scored it')
    expect(text).toContain('not rebuilt partnet-none / sample-01: its page was lost and its world could not be rebuilt exactly (line 3: a tool_call without its tool_result), so it has no score')
    expect(text).not.toMatch(/rebuilt ikea-manualbook/)
    const json = await statusJson([dir, { json: true, benchmark: pkg.root }]) as StatusJson & { rebuilt: Record<string, unknown> }
    expect(json.rebuilt).toEqual({
      'partnet-none/sample-00': { status: 'rebuilt', from: 'conversation.jsonl', tool_calls: 4, replayed: 4 },
      'partnet-none/sample-01': { status: 'not_rebuilt', reason: 'line 3: a tool_call without its tool_result', tool_calls: 2 },
    })
  })
})
