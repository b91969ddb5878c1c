// The test file of every block project: one test per sample, run in the page (Vitest browser mode).
// A thin adapter: the sample itself is run by src/harness; this file turns its report into a test result.
import wasmUrl from '@mujoco/mujoco/mujoco.wasm?url'
import { describe, expect, inject, test } from 'vitest'
import { commands } from 'vitest/browser'
import type { SampleMeta } from '../plugin/types.ts'
import { deliverTestStart } from '../plugin/vitest-compat/page.ts'
import { FinishSampleResponseSchema, runSample, SamplePlanSchema, type SampleHost } from '../src/harness/index.ts'
import { createThreeSceneRenderer } from '../src/render/index.ts'
import { loadMujoco } from '../src/world/index.ts'

const block = inject('awbBlock')

function hostFor(sampleId: string): SampleHost {
  return {
    start: () => commands.awbStartSample(block.name, sampleId),
    record: entry => commands.awbRecord(block.name, sampleId, entry),
    saveFinal: base64 => commands.awbSaveFinal(block.name, sampleId, base64),
    // The Node side's answers are parsed as they cross into the page, like everything the Node side receives.
    finish: async report => FinishSampleResponseSchema.parse(await commands.awbFinishSample(block.name, sampleId, report)),
    runCliAgent: () => commands.awbRunCliAgent(block.name, sampleId),
    heartbeat: () => commands.awbHeartbeat(block.name, sampleId),
  }
}

function format(value: number | null): string {
  return value === null ? 'null' : String(value)
}

type Annotate = (message: string, type: string) => Promise<unknown>

/** The per-test figures (JUnit properties): the same for a sample run now and one a resumed run reports. */
async function annotateSample(meta: SampleMeta, annotate: Annotate): Promise<void> {
  const { row } = meta
  const parts = row.status === 'scored' ? row.parts : []
  await annotate(format(row.SR), 'SR')
  await annotate(format(row.PA), 'PA')
  await annotate(format(row.SCD), 'SCD')
  await annotate(`${parts.filter(part => part.correct).length}/${parts.length}`, 'parts_correct')
  await annotate(String(row.tool_calls ?? 0), 'tool_calls')
  await annotate(((meta.timings.openMs + meta.timings.exportMs + meta.timings.saveMs) / 1000).toFixed(3), 'overhead_seconds')
  await annotate((meta.timings.agentMs / 1000).toFixed(3), 'agent_seconds')
  await annotate((meta.timings.scoreMs / 1000).toFixed(3), 'scoring_seconds')
  // Of scoring_seconds: waiting for the scoring pool shared by every block project, and the backend's own work.
  await annotate((meta.timings.scoreQueueMs / 1000).toFixed(3), 'scoring_queue_seconds')
  await annotate((meta.timings.scoreComputeMs / 1000).toFixed(3), 'scoring_compute_seconds')
  await annotate(meta.backend, 'scoring_backend')
}

function assertRow(meta: SampleMeta, sampleId: string): void {
  const { row } = meta
  if (row.status === 'error') throw new Error(`${block.name} / ${sampleId}: unscorable: ${row.error}`)
  const { SR, PA } = block.thresholds
  // Soft: a sample below both thresholds reports both.
  if (SR !== undefined) expect.soft(row.SR, `SR of ${block.name} / ${sampleId} (threshold ${SR})`).toBeGreaterThanOrEqual(SR)
  if (PA !== undefined) expect.soft(row.PA, `PA of ${block.name} / ${sampleId} (threshold ${PA})`).toBeGreaterThanOrEqual(PA)
}

// The block name is the describe name, so every reporter shows it in the test name (the two PartNet blocks share sample ids).
describe(block.name, () => {
  test.for(block.samples.map(sample => [sample.id, sample] as const))('%s', async ([sampleId], { task, annotate, skip }) => {
    // The Node side binds every command to the running test: deliver this test's start first.
    await deliverTestStart(task, sampleId)
    const plan = SamplePlanSchema.parse(await commands.awbSamplePlan(block.name, sampleId))
    if (plan.kind === 'skip') return skip(plan.reason)
    if (plan.kind === 'recorded') {
      // A resumed run: the sample finished in an earlier run of the chain; its recorded result is this test's.
      const meta: SampleMeta = { row: plan.row, timings: plan.timings, backend: plan.backend, runDir: plan.runDir, recordedBy: plan.runDir }
      task.meta.awb = meta
      await annotateSample(meta, annotate)
      await annotate(plan.runDir, 'recorded_by')
      if (plan.failure !== null) throw new Error(`${block.name} / ${sampleId}: ${plan.failure} (recorded by ${plan.runDir})`)
      assertRow(meta, sampleId)
      return
    }
    const mujoco = await loadMujoco({ locateFile: path => (path.endsWith('.wasm') ? wasmUrl : path) })
    const report = await runSample(hostFor(sampleId), {
      mujoco,
      createRenderer: () => createThreeSceneRenderer(),
      modelTransport: { send: request => commands.awbModelRequest(request) },
    })
    const meta: SampleMeta = { row: report.response.row, timings: { ...report.timings, ...report.response.scoring }, backend: report.response.backend, runDir: report.response.runDir }
    task.meta.awb = meta
    await annotateSample(meta, annotate)
    // Block projects may not write attachments (page code writes nothing on the host): the harness kept the
    // picture as final.png in the sample's run folder.
    if (report.capture !== undefined) await annotate(`${report.response.sampleDir}/final.png`, 'capture')

    if (report.failure !== undefined) throw new Error(`${block.name} / ${sampleId}: ${report.failure} (the world it left was ${meta.row.status === 'scored' ? `scored: SR ${meta.row.SR}, PA ${meta.row.PA}` : 'not scorable'})`)
    assertRow(meta, sampleId)
  })
})
