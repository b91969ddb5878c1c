// A timed-out agent's world is scored even when its page is gone (one child `vitest run`, real Chromium): with site
// isolation off, a page agent that edits its world and then never yields hangs its whole page, which Node closes past
// its time limit; Node rebuilds the world from the calls it recorded, and the sample fails as the agent's timeout
// with that world saved, sealed and scored, as the reference runner exports and scores a timed-out world.
import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeEpisode } from '../../src/episode/index.ts'
import { findSample, openPackage } from '../../src/package/index.ts'
import { findChromium } from '../../src/shared/chromium.ts'
import { loadMujoco, WorldRuntime } from '../../src/world/index.ts'
import { CHILD_MS, newRuns, removeRunFolders, runDirs, status, vitestRun, type Child } from '../helpers/long-run.ts'
import { runCli } from '../helpers/run-cli.ts'
import { REBUILD_POSES_MARKER } from './long-runs/edit-then-spin-agent.ts'

const EDIT_THEN_SPIN_AGENT = './test/integration/long-runs/edit-then-spin-agent.ts'
/** A block with a 7-part sample, so the rebuilt world has several moved parts to get right. */
const BLOCK = 'ikea-manualbook'
/** The block's only 7-part sample: its agent edits and spins; the others stop at once and are scored. */
const SPINNING = 'Misc/grefodun'
const PACKAGE = resolve(import.meta.dirname, '..', '..', 'fixtures', 'awb-mini')

interface Pose { id: string; position: number[]; quaternion: number[] }
interface Result {
  status: string
  execution: { status: string; error: string }
  archive: { status: string; sha256: string; calls: number; rebuild?: { status: string; tool_calls: number; replayed: number } }
  tool_calls: number
  metrics: Record<string, unknown>
}

let child: Child
let runDir: string
let sampleDir: string
let result: Result

afterAll(removeRunFolders)

beforeAll(async () => {
  const runs = await newRuns()
  child = await vitestRun({
    AWB_RUNS: runs,
    AWB_AGENT: EDIT_THEN_SPIN_AGENT,
    VITE_AWB_SPIN_PARTS: '7',
    AWB_TIMEOUT_SECONDS: '8',
    AWB_HUNG_PAGE_GRACE_SECONDS: '10',
    // A Chromium that keeps sandboxed frames in their parent's process: the spinning realm blocks the whole page.
    AWB_CHROMIUM: await chromiumWithoutSiteIsolation(await newRuns()),
  }, undefined, [BLOCK])
  const dirs = await runDirs(runs)
  expect(dirs, child.output).toHaveLength(1)
  runDir = dirs[0]!
  sampleDir = join(runDir, 'blocks', BLOCK, 'samples', SPINNING.replace('/', '--'))
  result = JSON.parse(await readFile(join(sampleDir, 'result.json'), 'utf8')) as Result
}, CHILD_MS)

describe.concurrent('a page agent that edits its world, then hangs its page past the time limit', () => {
  it('fails its test as the agent\'s timeout; the page was closed and the block went on', () => {
    expect(child.code, child.output).toBe(1)
    expect(child.output).toMatch(/1 failed \| 3 passed/)
    expect(child.output).toMatch(/awb: the page of block ikea-manualbook stopped responding: Misc\/grefodun is \d+ s past its time limit of 8 s/)
    expect(result).toMatchObject({
      status: 'failed',
      execution: { status: 'timeout', error: expect.stringContaining('stopped responding') },
      archive: { status: 'saved', calls: 9, rebuild: { status: 'rebuilt', from: 'conversation.jsonl', tool_calls: 9, replayed: 9 } },
      tool_calls: 9,
      metrics: { status: 'scored', tool_calls: 9 },
    })
  })

  it('has its world rebuilt from Node\'s record: the poses the page\'s world reported before it hung', async () => {
    const conversation = (await readFile(join(sampleDir, 'conversation.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as { type: string; content?: unknown })
    const report = conversation.find(entry => entry.type === 'message' && typeof entry.content === 'string' && entry.content.startsWith(REBUILD_POSES_MARKER))
    expect(report, 'the agent recorded its poses before it spun').toBeDefined()
    const reported = JSON.parse((report!.content as string).slice(REBUILD_POSES_MARKER.length)) as Pose[]
    const runtime = WorldRuntime.open({ mujoco: await loadMujoco(), episode: await decodeEpisode(await readFile(join(sampleDir, 'final.episode.zip'))) })
    try {
      const state = JSON.parse(await runtime.callTool('get_state', {})) as { objects: Pose[] }
      expect(state.objects.map(({ id, position, quaternion }) => ({ id, position, quaternion }))).toEqual(reported)
      // The edits are in it: the parts moved away from the initial poses.
      expect(reported.filter(pose => pose.position.some(value => value !== 0))).toHaveLength(3)
    } finally {
      runtime.dispose()
    }
  })

  it('scores the rebuilt world as `awb score` does; the archive is the sealed one, a resume leaves the sample, the summary counts its score', async () => {
    const pkg = await openPackage(PACKAGE)
    const sample = findSample(pkg, BLOCK, SPINNING)
    const scored = await runCli(['score', '--evaluation', join(pkg.root, sample.evaluationPath), '--episode', join(sampleDir, 'final.episode.zip'), '--initial', join(pkg.root, sample.episodePath), '--workers', '0', '--json'])
    expect(scored.code, scored.stderr).toBe(0)
    const row = JSON.parse(scored.stdout) as Record<string, unknown>
    const { SCD, PA, SR, parts, state_index, episode_sha256 } = result.metrics
    expect({ SCD: row.SCD, PA: row.PA, SR: row.SR, parts: row.parts, state_index: row.state_index, episode_sha256: row.episode_sha256 }).toEqual({ SCD, PA, SR, parts, state_index, episode_sha256 })
    expect(episode_sha256).toBe(result.archive.sha256)
    // `failed`, not `interrupted`: the agent's own timeout, which a resume does not run again; its seal holds.
    expect(await status(runDir)).toMatchObject({ status: 'completed', counts: { completed: 3, failed: 1 }, samples: { [`${BLOCK}/${SPINNING}`]: 'failed' } })
    const summary = JSON.parse(await readFile(join(runDir, 'summary.json'), 'utf8')) as unknown
    expect(summary).toMatchObject({ attempted: 4, blocks: { [BLOCK]: { attempted: 4, scored: 4 } } })
  })
})

/** A launcher (in `dir`) of this machine's Chromium with site isolation off, for AWB_CHROMIUM. */
async function chromiumWithoutSiteIsolation(dir: string): Promise<string> {
  const chromium = findChromium()
  if (chromium === undefined) throw new Error('no Chromium found')
  const launcher = join(dir, 'chromium-without-site-isolation.sh')
  await writeFile(launcher, `#!/bin/sh\nexec ${JSON.stringify(chromium)} --disable-site-isolation-trials "$@"\n`, { mode: 0o755 })
  return launcher
}
