// A setup file that runs in each block's tester page before the block suite and forges what the page reports, as
// compromised page code could: it drops the block's thresholds, so the suite asserts nothing and its first sample's
// test passes although Node scored it below them; and it answers the second sample's plan with a forged "recorded"
// SR 1 row, so that test passes without the sample ever running. Node's ledger must win over both.
import { beforeEach, inject } from 'vitest'
import { SamplePlanSchema } from '../../../src/harness/index.ts'
import { scoredRow } from '../../helpers/metrics-rows.ts'

const NEVER_RAN = 'sample-01'
const block = inject('awbBlock')
block.thresholds = {}

let running: string | undefined
beforeEach(({ task }) => {
  running = task.name
})

const parse = SamplePlanSchema.parse.bind(SamplePlanSchema)
SamplePlanSchema.parse = ((value: unknown) => {
  const plan = parse(value)
  if (plan.kind !== 'run' || running !== NEVER_RAN) return plan
  const timings = { openMs: 0, agentMs: 0, exportMs: 0, saveMs: 0, scoreMs: 0, scoreQueueMs: 0, scoreComputeMs: 0 }
  return { kind: 'recorded', row: scoredRow({ block: block.name, sample_id: NEVER_RAN, SR: 1, PA: 1, SCD: 0 }), timings, backend: 'forged', runDir: '/forged', sampleDir: '/forged', failure: null }
}) as typeof SamplePlanSchema.parse
