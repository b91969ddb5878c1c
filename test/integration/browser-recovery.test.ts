// Browser faults inside a run (child `vitest run` processes, real Chromium), on each supported Vitest: a killed Chromium
// or a crashed page fails only its sample in flight and the block goes on in a new page while the other block completes;
// Ctrl-C drains; a page agent that never yields is ended at its time limit (where its realm shares the page's process,
// its page is closed past its time limit: rebuilt-worlds.test.ts). The recovery is plugin/vitest-compat.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startReleaseBarrier } from '../helpers/release-barrier.ts'
import { BLOCK, CHILD_MS, chromiumOf, newRuns, removeRunFolders, results, runDirs, runningSamples, SAMPLES, SLOW_AGENT, SPINNING_AGENT, status, vitestRun, type Result } from '../helpers/long-run.ts'

afterAll(removeRunFolders)

/** The block with a 7-part sample (the spinning agent spins only there). */
const IKEA = 'ikea-manualbook'


// Each test is its own child run with its own runs folder, mostly waiting on its agents: they run at once.
describe.concurrent('faults in the middle of a sample', () => {
  const projects = [BLOCK, 'partnet-none']

  it.each([
    ['Chromium is killed', 'browser', `the Chromium browser of block ${BLOCK} exited while this sample ran`, true],
    ['page crashes (renderers killed)', 'renderers', `the page of block ${BLOCK} crashed while this sample ran`, false],
  ] as const)('a block whose %s fails only its sample in flight: the block goes on in a new page, the other block completes, summaries are written', async (_what, target, reason, resume) => {
    const runs = await newRuns()
    let inFlight: string | undefined
    // Every sample's agent waits at the barrier until the fault struck; then the run finishes at full speed.
    const barrier = await startReleaseBarrier()
    const crashed = await vitestRun({ AWB_RUNS: runs, AWB_AGENT: SLOW_AGENT, VITE_AWB_RELEASE_URL: barrier.url }, {
      // Both blocks are in the middle of a sample (the other block's must survive the kill), and Node has recorded the
      // answer to the in-flight sample's one edit, so the world it rebuilds is that edit's.
      when: async () => {
        const running = await runningSamples(runs)
        inFlight = running.find(id => id.startsWith(`${BLOCK}/`))
        return running.length >= 2 && inFlight !== undefined && (await recordedConversation(runs, inFlight)).includes('"type":"tool_result"')
      },
      act: (pid) => {
        const victims = chromiumOf(pid, BLOCK, target)
        if (victims.length === 0) throw new Error(`no Chromium ${target} of block ${BLOCK} was found under the run`)
        for (const victim of victims) process.kill(victim, 'SIGKILL')
        barrier.release()
      },
    }, projects).finally(() => barrier.close())
    // The lost sample's test fails; every other test passes.
    expect(crashed.code, crashed.output).toBe(1)
    expect(crashed.output).toMatch(/1 failed \| 7 passed/)
    expect(crashed.output).toContain(`awb: ${reason}`)
    const runList = await runDirs(runs)
    expect(runList).toHaveLength(1)
    const run = runList[0]!
    expect(await status(run), crashed.output).toMatchObject({ status: 'completed', counts: { completed: 7, interrupted: 1 } })
    expect(Object.entries((await status(run)).samples).filter(([, state]) => state === 'interrupted').map(([id]) => id)).toEqual([inFlight])
    // The lost sample fails its test, and its world is scored: saved by the dying page when it got that far (its agent's
    // wait ends when the browser goes), else rebuilt in Node from the calls Node recorded.
    const lost = (await results(runs)).get(inFlight!) as Result & { archive: { status: string; rebuild?: unknown } }
    expect(lost).toMatchObject({ status: 'failed', execution: { status: 'interrupted', error: expect.stringContaining(reason) }, archive: { status: 'saved' } })
    if (lost.archive.rebuild !== undefined) expect(lost.archive.rebuild).toMatchObject({ status: 'rebuilt', tool_calls: 1 })
    // Every sample has a scored row, the lost one's from its rebuilt world.
    const summary = JSON.parse(await readFile(join(run, 'summary.json'), 'utf8')) as unknown
    expect(summary).toMatchObject({ attempted: 8, blocks: { [BLOCK]: { attempted: 4, scored: 4 }, 'partnet-none': { attempted: 4, scored: 4 } } })
    const rows = (await readFile(join(run, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as { block: string; sample_id: string; status: string })
    expect(rows).toHaveLength(8)
    expect(rows.filter(row => row.status !== 'scored')).toEqual([])
    if (!resume) return

    // A resume runs the lost sample only.
    const resumed = await vitestRun({ AWB_RUNS: runs, AWB_RESUME: run }, undefined, projects)
    expect(resumed.code, resumed.output).toBe(0)
    const [, second] = await runDirs(runs)
    expect(Object.values((JSON.parse(await readFile(join(second!, 'run.json'), 'utf8')) as { selection: Record<string, string[]> }).selection).flat()).toEqual([inFlight!.slice(BLOCK.length + 1)])
    expect(await status(second!)).toMatchObject({ status: 'completed', counts: { completed: 8 } })
  }, 2 * CHILD_MS)

  it('Ctrl-C drains: the sample in flight stops its agent, saves its world and is recorded interrupted; the rest is skipped; the run is paused', async () => {
    const runs = await newRuns()
    const interrupted = await vitestRun({ AWB_RUNS: runs, AWB_AGENT: SLOW_AGENT, VITE_AWB_SLOW_MS: '120000' }, {
      when: async () => (await runningSamples(runs)).length >= 1,
      act: pid => process.kill(pid, 'SIGINT'),
    })
    expect(interrupted.output).toMatch(/awb: interrupted/)
    expect(interrupted.output).toMatch(/1 failed \| 3 skipped/)
    const [first] = await runDirs(runs)
    expect(await status(first!)).toMatchObject({ status: 'paused', pause_reason: 'Interrupted (SIGINT)', counts: { interrupted: 1 } })
    const result = JSON.parse(await readFile(join(first!, 'blocks', BLOCK, 'samples', SAMPLES[0]!.replace('/', '--'), 'result.json'), 'utf8')) as { execution: { status: string }; archive: { status: string } }
    // The world it left was saved and scored: the agent stopped, not the harness.
    expect(result).toMatchObject({ execution: { status: 'interrupted' }, archive: { status: 'saved' } })
    expect(JSON.parse(await readFile(join(first!, 'summary.json'), 'utf8'))).toMatchObject({ status: 'partial', attempted: 1 })
  }, CHILD_MS)
})

describe.concurrent('a page agent that never yields', () => {
  it('is ended at its time limit: its realm spins in its own process, so the harness stops it, saves its world and the block goes on', async () => {
    const runs = await newRuns()
    // Misc/grefodun is the IKEA block's only 7-part sample: its agent spins; the others stop at once and are scored.
    const run = await vitestRun({ AWB_RUNS: runs, AWB_AGENT: SPINNING_AGENT, VITE_AWB_SPIN_PARTS: '7', AWB_TIMEOUT_SECONDS: '5', AWB_HUNG_PAGE_GRACE_SECONDS: '10' }, undefined, [IKEA])
    expect(run.code, run.output).toBe(1)
    expect(run.output).toMatch(/1 failed \| 3 passed/)
    expect(run.output).not.toMatch(/stopped responding/)
    const [runDir] = await runDirs(runs)
    const result = JSON.parse(await readFile(join(runDir!, 'blocks', IKEA, 'samples', 'Misc--grefodun', 'result.json'), 'utf8')) as unknown
    // The page's own time limit fired (the realm's frame was removed): the world the agent left was saved and scored.
    expect(result).toMatchObject({ status: 'failed', execution: { status: 'timeout', error: 'time limit of 5 s reached' }, archive: { status: 'saved' } })
    expect(await status(runDir!)).toMatchObject({ status: 'completed', counts: { completed: 3, failed: 1 } })
  }, CHILD_MS)
})

/** What Node recorded of a sample's conversation in the newest run of `runs` (empty before its first record). */
async function recordedConversation(runs: string, sampleKey: string): Promise<string> {
  const [newest] = (await runDirs(runs)).slice(-1)
  if (newest === undefined) return ''
  const slug = sampleKey.slice(BLOCK.length + 1).replace('/', '--')
  return readFile(join(newest, 'blocks', BLOCK, 'samples', slug, 'conversation.jsonl'), 'utf8').catch(() => '')
}
