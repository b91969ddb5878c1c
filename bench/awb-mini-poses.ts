// The bundled awb-mini samples as scoring inputs in seeded poses, for the GPU benchmarks: `near-perfect` (every part
// a little off its ground truth: a finished agent's typical final state, SR 1) and `scrambled` (far off: long ICP
// runs, many near-ties). Same seeds everywhere, so bench:gpu-exact and bench:gpu score the same rows.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { SampleInput } from '../src/scoring/index.ts'
import { perturbedSample, readEvaluation } from '../test/helpers/perturbed-sample.ts'

const AWB_MINI = 'fixtures/awb-mini'

export type AwbMiniPose = 'near-perfect' | 'scrambled'

/** Turn (rad) and shift of each pose kind, and its offset from the sample's seed. */
const POSES: Record<AwbMiniPose, { turn: number; shift: number; seedOffset: number }> = {
  'near-perfect': { turn: 0.05, shift: 0.01, seedOffset: 0 },
  scrambled: { turn: 1.5, shift: 0.2, seedOffset: 1 },
}

export interface AwbMiniRow {
  /** `<block>/<sample folder>`. */
  name: string
  parts: number
  build(pose: AwbMiniPose): SampleInput
}

/** Every awb-mini sample (paths relative to the repository root, which is the working directory), sorted by path. */
export function awbMiniRows(): AwbMiniRow[] {
  const paths = readdirSync(AWB_MINI, { recursive: true, encoding: 'utf8' }).filter(p => p.endsWith('evaluation.json')).sort()
  return paths.map(path => {
    const evaluation = readEvaluation(join(AWB_MINI, path))
    const dir = path.replace(/\/evaluation\.json$/, '')
    const seed = [...dir].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 17)
    return {
      name: `${dir.split('/')[0]}/${dir.split('/').at(-1)}`,
      parts: evaluation.part_ids.length,
      build: pose => {
        const { turn, shift, seedOffset } = POSES[pose]
        return perturbedSample(evaluation, seed + seedOffset, turn, shift)
      },
    }
  })
}
