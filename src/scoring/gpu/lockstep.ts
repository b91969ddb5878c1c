// Runs the alignment starts of one or more samples in lockstep on a NearestDevice: every round sends the current
// transform of every unfinished start (both directions, all samples) to the device in ONE batch, then certifies each
// float32 answer in float64 or replaces it with the exact KD search. Same ICP loop, same sums, same bits as the CPU
// backend (IcpContext.startSteps); no start generation, no winner choice, no browser handling.
import { ScoringError } from '../errors.ts'
import { IcpContext, type IcpEvaluation, type StartResult } from '../icp.ts'
import type { KdTree } from '../kd-tree.ts'
import type { AlignmentStart } from '../starts.ts'
import { cloudBounds, isCertified, otherPointsLowerBound, pointErrorBound, queryErrorBound } from './certify.ts'
import { MAX_DEVICE_CLOUD_POINTS, type NearestAnswers, type NearestDevice, type NearestGroup } from './device.ts'

/** One sample's clouds (flat xyz, equal length) and its ordered starts. */
export interface LockstepSample {
  prediction: ArrayLike<number>
  target: ArrayLike<number>
  starts: readonly AlignmentStart[]
}

/**
 * Every SPOT_CHECK_STRIDE-th query of each direction (a prime, so it never lines up with cloud structure) is also
 * answered by the exact KD search, and the certificate's premise is checked on it: the GPU's second distance must not
 * exceed, within the error bound, the real distance to the nearest point other than its index. The proof in
 * certify.ts assumes the device computed over the uploaded data; this catches a device or gpu.js bug that does not
 * (wrong texels, a miscompiled loop) and fails the sample with SCORING_GPU_UNTRUSTED instead of certifying garbage.
 * It never changes a result; it costs ~2 % more KD queries.
 */
export const SPOT_CHECK_STRIDE = 61

/** Counters of a lockstep run (for benchmarks, doctor and tests; results never depend on them). */
export interface LockstepStats {
  /** Device round trips. */
  rounds: number
  /** Nearest-neighbour queries answered. */
  queries: number
  /** Queries whose GPU candidate was certified in float64. */
  certified: number
  /** Queries that fell back to the exact KD search (near-ties, exact ties, bad answers). */
  fallbacks: number
  /** Milliseconds spent waiting for the device. */
  deviceMs: number
  /** Point pairs the device compared (source points × target points × maps, summed over groups). */
  pairs: number
}

/** A fresh all-zero LockstepStats. */
export function emptyLockstepStats(): LockstepStats {
  return { rounds: 0, queries: 0, certified: 0, fallbacks: 0, deviceMs: 0, pairs: 0 }
}

interface SampleState {
  context: IcpContext
  cloudP: number
  cloudT: number
  /** Per-axis |coordinate| bounds and the largest norm of the centred clouds (tree order). */
  boundsP: ReturnType<typeof cloudBounds>
  boundsT: ReturnType<typeof cloudBounds>
}

interface StartState {
  sample: number
  index: number
  steps: Generator<IcpEvaluation, StartResult, number>
  request: IcpEvaluation
  /** Last answer per query (tree positions), −1 before the first: the hint the CPU objective would pass. */
  hintF: Int32Array
  hintB: Int32Array
}

/** Forward map of a request: A = R, b = t. */
function forwardAffine(out: Float64Array, r: Float64Array, t: Float64Array): Float64Array {
  out.set(r)
  out[9] = t[0]!; out[10] = t[1]!; out[11] = t[2]!
  return out
}

/** Backward map of a request: A = Rᵀ, b = −Rᵀ t (the CPU computes Rᵀ(q − t); the bound covers the difference). */
function backwardAffine(out: Float64Array, r: Float64Array, t: Float64Array): Float64Array {
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) out[3 * i + j] = r[3 * j + i]!
  for (let i = 0; i < 3; i++) out[9 + i] = -(r[i]! * t[0]! + r[3 + i]! * t[1]! + r[6 + i]! * t[2]!)
  return out
}

/**
 * Every start of every sample, run to completion; results[s][k] is sample s's start k, equal bit for bit to
 * `new IcpContext(prediction, target).runStart(start)`. The device only proposes candidates (see certify.ts).
 */
export async function runStartsLockstep(device: NearestDevice, samples: readonly LockstepSample[], stats: LockstepStats = emptyLockstepStats()): Promise<StartResult[][]> {
  const uploaded: number[] = []
  try {
    const sampleStates: SampleState[] = []
    for (const sample of samples) {
      if (sample.prediction.length !== sample.target.length || sample.prediction.length === 0 || sample.prediction.length % 3 !== 0) {
        throw new ScoringError('SCORING_BAD_INPUT', `gpu scoring: prediction and target must be flat xyz clouds of equal, non-zero size (got ${sample.prediction.length} and ${sample.target.length} numbers)`)
      }
      if (sample.prediction.length / 3 >= MAX_DEVICE_CLOUD_POINTS) {
        throw new ScoringError('SCORING_BAD_INPUT', `gpu scoring: ${sample.prediction.length / 3} points per cloud exceed the device limit of ${MAX_DEVICE_CLOUD_POINTS - 1}; use --backend cpu`)
      }
      const context = new IcpContext(sample.prediction, sample.target, 'js')
      const cloudP = await device.upload(Float32Array.from(context.treeP.points))
      uploaded.push(cloudP)
      const cloudT = await device.upload(Float32Array.from(context.treeT.points))
      uploaded.push(cloudT)
      sampleStates.push({ context, cloudP, cloudT, boundsP: cloudBounds(context.treeP.points), boundsT: cloudBounds(context.treeT.points) })
    }
    const results: StartResult[][] = samples.map(s => new Array<StartResult>(s.starts.length))
    let active: StartState[] = []
    samples.forEach((sample, s) => sample.starts.forEach((start, index) => {
      const steps = sampleStates[s]!.context.startSteps(start)
      const first = steps.next()
      if (first.done === true) { results[s]![index] = first.value; return }
      const n = sampleStates[s]!.context.size
      active.push({ sample: s, index, steps, request: first.value, hintF: new Int32Array(n).fill(-1), hintB: new Int32Array(n).fill(-1) })
    }))
    const affine = new Float64Array(12)
    const sums = new Float64Array(17)
    while (active.length > 0) {
      // One forward and one backward group per sample, maps in `active` order.
      const groups: NearestGroup[] = []
      const groupOf = new Map<number, number>()
      for (let s = 0; s < sampleStates.length; s++) {
        const members = active.filter(a => a.sample === s)
        if (members.length === 0) continue
        const fwd = new Float32Array(12 * members.length), bwd = new Float32Array(12 * members.length)
        members.forEach((a, k) => {
          fwd.set(forwardAffine(affine, a.request.rot, a.request.trans), 12 * k)
          bwd.set(backwardAffine(affine, a.request.rot, a.request.trans), 12 * k)
        })
        groupOf.set(s, groups.length)
        groups.push({ source: sampleStates[s]!.cloudP, target: sampleStates[s]!.cloudT, affines: fwd }, { source: sampleStates[s]!.cloudT, target: sampleStates[s]!.cloudP, affines: bwd })
      }
      for (const g of groups) stats.pairs += groupSize(sampleStates, g) * (g.affines.length / 12)
      const started = performance.now()
      const answers = await device.nearest(groups)
      stats.deviceMs += performance.now() - started
      stats.rounds++
      if (answers.length !== groups.length) throw new ScoringError('SCORING_WORKER_FAILED', `gpu scoring: the device answered ${answers.length} groups of ${groups.length}`)
      const next: StartState[] = []
      const slot = new Map<number, number>()
      for (const a of active) {
        const g = groupOf.get(a.sample)!
        const k = slot.get(a.sample) ?? 0
        slot.set(a.sample, k + 1)
        const state = sampleStates[a.sample]!
        const f = evaluateFromAnswers(state, a, answers[g]!, answers[g + 1]!, k, affine, sums, stats)
        const step = a.steps.next(f)
        if (step.done === true) results[a.sample]![a.index] = step.value
        else { a.request = step.value; next.push(a) }
      }
      active = next
    }
    return results
  } finally {
    if (uploaded.length > 0) await device.release(uploaded)
  }
}

/** Source points × target points of a group (both clouds of a sample have the same size). */
function groupSize(states: readonly SampleState[], group: NearestGroup): number {
  for (const state of states) {
    if (group.source === state.cloudP || group.source === state.cloudT) return state.context.size * state.context.size
  }
  return 0
}

/**
 * f(R, t) and the Kabsch sums of one start from the device's answers: the loops of JsObjective.evaluate (objective.ts)
 * with each nearest point taken from a certified GPU candidate or, failing that, from KdTree.nearest with the same hint
 * the CPU passes. Same summation order, so the same bits.
 */
function evaluateFromAnswers(
  state: SampleState, a: StartState, forward: NearestAnswers, backward: NearestAnswers, k: number,
  affine: Float64Array, acc: Float64Array, stats: LockstepStats,
): number {
  const { rot: r, trans: t, sums } = a.request
  const n = state.context.size
  acc.fill(0)
  const boundF = queryErrorBound(forwardAffine(affine, r, t), state.boundsP.absMax) + pointErrorBound(state.boundsT.maxNorm)
  const sumF = direction(state.context.treeP, state.context.treeT, r, t, false, forward, k * n, a.hintF, boundF, acc, stats)
  const boundB = queryErrorBound(backwardAffine(affine, r, t), state.boundsT.absMax) + pointErrorBound(state.boundsP.maxNorm)
  const sumB = direction(state.context.treeT, state.context.treeP, r, t, true, backward, k * n, a.hintB, boundB, acc, stats)
  for (let i = 0; i < 15; i++) sums[i] = acc[i]!
  return sumF / n + sumB / n
}

/** Throws SCORING_GPU_UNTRUSTED when the GPU's bound `lower` on every point other than `j` is not a bound (see SPOT_CHECK_STRIDE). */
function spotCheck(tree: KdTree, x: number, y: number, z: number, j: number, lower: number, i: number): void {
  const best = tree.nearest(x, y, z, -1)
  const otherSq = best === j ? tree.secondLowerSq : tree.distSq
  if (lower > Math.sqrt(otherSq) * (1 + 1e-12)) {
    throw new ScoringError('SCORING_GPU_UNTRUSTED', `gpu scoring: the device's answer for query ${i} breaks its error bound (it claims no other point within ${lower}, one is at ${Math.sqrt(otherSq)}); the GPU or gpu.js computed over the wrong data; use --backend cpu and report the renderer`)
  }
}

/**
 * One query direction. Forward: sources are P points p, moved to R·p + t, searched in T; the pair is (p, q_j).
 * Backward: sources are T points q, moved to Rᵀ(q − t), searched in P; the pair is (p_j, q). Accumulates Σs, Σq and
 * Σ s qᵀ into acc[0..15) in source order; returns Σ d².
 */
function direction(
  srcTree: KdTree, dstTree: KdTree, r: Float64Array, t: Float64Array, isBackward: boolean,
  answers: NearestAnswers, offset: number, hint: Int32Array, errorBound: number, acc: Float64Array, stats: LockstepStats,
): number {
  const r0 = r[0]!, r1 = r[1]!, r2 = r[2]!, r3 = r[3]!, r4 = r[4]!, r5 = r[5]!, r6 = r[6]!, r7 = r[7]!, r8 = r[8]!
  const t0 = t[0]!, t1 = t[1]!, t2 = t[2]!
  const src = srcTree.points, dst = dstTree.points
  const m = dstTree.size
  const n = srcTree.size
  const index = answers.index, second = answers.second
  let ssx = acc[0]!, ssy = acc[1]!, ssz = acc[2]!, sqx = acc[3]!, sqy = acc[4]!, sqz = acc[5]!
  let h0 = acc[6]!, h1 = acc[7]!, h2 = acc[8]!, h3 = acc[9]!, h4 = acc[10]!, h5 = acc[11]!, h6 = acc[12]!, h7 = acc[13]!, h8 = acc[14]!
  let sum = 0
  let certified = 0
  for (let i = 0; i < n; i++) {
    const sx = src[3 * i]!, sy = src[3 * i + 1]!, sz = src[3 * i + 2]!
    let x: number, y: number, z: number
    if (isBackward) {
      const ux = sx - t0, uy = sy - t1, uz = sz - t2
      x = r0 * ux + r3 * uy + r6 * uz
      y = r1 * ux + r4 * uy + r7 * uz
      z = r2 * ux + r5 * uy + r8 * uz
    } else {
      x = r0 * sx + r1 * sy + r2 * sz + t0
      y = r3 * sx + r4 * sy + r5 * sz + t1
      z = r6 * sx + r7 * sy + r8 * sz + t2
    }
    let j = index[offset + i]!
    let d2 = Infinity
    let isOk = false
    if (j >= 0 && j < m && Number.isInteger(j)) {
      const dx = x - dst[3 * j]!, dy = y - dst[3 * j + 1]!, dz = z - dst[3 * j + 2]!
      d2 = dx * dx + dy * dy + dz * dz
      const lower = otherPointsLowerBound(second[offset + i]!, errorBound)
      isOk = isCertified(d2, lower)
      if (i % SPOT_CHECK_STRIDE === 0) spotCheck(dstTree, x, y, z, j, lower, i)
    }
    if (isOk) certified++
    else {
      j = dstTree.nearest(x, y, z, hint[i]!)
      d2 = dstTree.distSq
    }
    hint[i] = j
    sum += d2
    const px = dst[3 * j]!, py = dst[3 * j + 1]!, pz = dst[3 * j + 2]!
    // Forward pairs (s = source, q = found); backward pairs (s = found, q = source).
    const ax = isBackward ? px : sx, ay = isBackward ? py : sy, az = isBackward ? pz : sz
    const bx = isBackward ? sx : px, by = isBackward ? sy : py, bz = isBackward ? sz : pz
    ssx += ax; ssy += ay; ssz += az; sqx += bx; sqy += by; sqz += bz
    h0 += ax * bx; h1 += ax * by; h2 += ax * bz
    h3 += ay * bx; h4 += ay * by; h5 += ay * bz
    h6 += az * bx; h7 += az * by; h8 += az * bz
  }
  acc[0] = ssx; acc[1] = ssy; acc[2] = ssz; acc[3] = sqx; acc[4] = sqy; acc[5] = sqz
  acc[6] = h0; acc[7] = h1; acc[8] = h2; acc[9] = h3; acc[10] = h4; acc[11] = h5; acc[12] = h6; acc[13] = h7; acc[14] = h8
  stats.queries += n
  stats.certified += certified
  stats.fallbacks += n - certified
  return sum
}
