// The test file of every block project: one test per sample, run in the page (Vitest browser mode).
// A thin adapter: the sample itself is run by src/harness; this file turns its report into a test result.
import wasmUrl from '@mujoco/mujoco/mujoco.wasm?url'
import { describe, expect, inject, test } from 'vitest'
import { commands } from 'vitest/browser'
import type { SampleMeta } from '../plugin/types.ts'
import { deliverTestStart } from '../plugin/vitest-compat/page.ts'
import { FinishSampleResponseSchema, runSample, sampleAnnotations, SamplePlanSchema, type SampleHost } from '../src/harness/index.ts'
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

type Annotate = (message: string, type: string) => Promise<unknown>

/** Shows the sample's figures in the page; Node's reporter writes the same figures from its own record over them. */
async function annotateSample(meta: SampleMeta, annotate: Annotate, capture?: string): Promise<void> {
  for (const annotation of sampleAnnotations(meta, { capture })) await annotate(annotation.message, annotation.type)
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
    if (plan.kind === 'stopped') return skip(plan.reason)
    if (plan.kind === 'recorded') {
      // A resumed run: the sample finished in an earlier run of the chain; its recorded result is this test's.
      const meta: SampleMeta = { row: plan.row, timings: plan.timings, backend: plan.backend, runDir: plan.runDir, recordedBy: plan.runDir }
      task.meta.awb = meta
      await annotateSample(meta, annotate)
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
    // Block projects may not write attachments (page code writes nothing on the host): the harness kept the
    // picture as final.png in the sample's run folder.
    await annotateSample(meta, annotate, report.capture === undefined ? undefined : `${report.response.sampleDir}/final.png`)

    if (report.failure !== undefined) throw new Error(`${block.name} / ${sampleId}: ${report.failure} (the world it left was ${meta.row.status === 'scored' ? `scored: SR ${meta.row.SR}, PA ${meta.row.PA}` : 'not scorable'})`)
    assertRow(meta, sampleId)
  })
})
