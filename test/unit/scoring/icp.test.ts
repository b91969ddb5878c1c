// IcpContext.runStart's reuse of an earlier start's trajectory (same transform after the first fit): every start's
// result stays that of the plain ICP loop, bit for bit, in any start order; an exact tie on the way turns reuse off.
import { describe, expect, it } from 'vitest'
import { IcpContext, buildVoronoiCellsWasm, planSample, quaternionToMatrix, type AlignmentStart, type StartResult } from '../../../src/scoring/index.ts'
import { WasmObjective } from '../../../src/scoring/objective-wasm.ts'
import { readVector, sampleFromEvaluation, type EvaluationLike, type PosesFile } from './load-conformance.ts'
import { randomBox, seededRandom } from './synthetic.ts'

/** Each start run by the plain loop (IcpContext.startSteps) over its own objective: no reuse anywhere. */
function plainResults(p: Float64Array, t: Float64Array, starts: readonly AlignmentStart[]): StartResult[] {
  const context = new IcpContext(p, t, 'wasm')
  const objective = new WasmObjective(context.treeP, context.treeT, [buildVoronoiCellsWasm(context.treeP), buildVoronoiCellsWasm(context.treeT)])
  return starts.map(start => {
    objective.reset()
    const steps = context.startSteps(start)
    let step = steps.next()
    while (step.done !== true) step = steps.next(objective.evaluate(step.value.rot, step.value.trans, step.value.sums))
    return step.value
  })
}

function chairPlan(pose: string) {
  const evaluation = readVector('11_chair/evaluation.json') as EvaluationLike
  const poses = readVector(`11_chair/poses/${pose}.json`) as PosesFile
  return planSample(sampleFromEvaluation(evaluation, poses, q => quaternionToMatrix(new Float64Array(9), q, 0)), { pointsPerPart: 1000 })
}

describe('IcpContext.runStart reusing trajectories', () => {
  it('gives the plain loop\'s results on the chair ("displaced": 4 part starts meet part-0 after one fit), in either order', () => {
    const plan = chairPlan('displaced')
    const { prediction: p, target: t } = plan.prepared
    const want = plainResults(p, t, plan.starts)
    const forward = new IcpContext(p, t, 'cells')
    expect(plan.starts.map(start => forward.runStart(start))).toEqual(want)
    expect(forward.trajectoriesReused).toBe(4)
    const backward = new IcpContext(p, t, 'cells')
    const reversed = [...plan.starts].reverse().map(start => backward.runStart(start)).reverse()
    expect(reversed).toEqual(want)
    expect(backward.trajectoriesReused).toBeGreaterThan(0)
  })

  it('reuses nothing after an exact tie (the KD search kept the hint), and still gives the plain results', () => {
    // The target holds every point twice, so each forward query ties; the same start twice meets itself after one fit.
    const rng = seededRandom(7)
    const p = randomBox(rng, 200, [0.5, 0.3, 0.1])
    const half = randomBox(rng, 100, [0.5, 0.3, 0.1])
    const t = Float64Array.from([...half, ...half])
    const start: AlignmentStart = { name: 'pca-0', rotation: new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]), translation: new Float64Array([0.02, -0.01, 0]) }
    const starts = [start, { ...start, name: 'part-0' }]
    const tied = new IcpContext(p, t, 'wasm')
    expect(starts.map(s => tied.runStart(s))).toEqual(plainResults(p, t, starts))
    expect(tied.trajectoriesReused).toBe(0)
    const distinct = randomBox(seededRandom(8), 200, [0.5, 0.3, 0.1])
    const untied = new IcpContext(p, distinct, 'wasm')
    expect(starts.map(s => untied.runStart(s))).toEqual(plainResults(p, distinct, starts))
    expect(untied.trajectoriesReused).toBe(1)
  })
})
