// The ICP starting transforms of scoring.md §6.2–6.3 (24 PCA starts, then one per part) in their exact order; no ICP.
// Convention: rotations are row-major Float64Array(9); a start maps prediction points p to R·p + t.
import { multiplyMat3, transposeMat3 } from './mat3.ts'
import type { PcaFrame } from './pca.ts'

/** One starting transform of the alignment. */
export interface AlignmentStart {
  /** `pca-k` (k = 0…23) or `part-k` (k = part index in code-point order). */
  name: string
  rotation: Float64Array
  translation: Float64Array
}

export interface PcaSeedAxes {
  name: string
  permutation: [number, number, number]
  signs: [number, number, number]
  /** Row-major A with A[perm[j]][j] = signs[j]. */
  axes: Float64Array
}

const PERMUTATIONS: ReadonlyArray<readonly [number, number, number]> = [
  [0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0],
]

/** The 24 proper signed permutation matrices in the order of §6.2 (permutations lexicographic, signs − before +). */
export function pcaSeedAxes(): PcaSeedAxes[] {
  const out: PcaSeedAxes[] = []
  for (const perm of PERMUTATIONS) {
    for (let code = 0; code < 8; code++) {
      const signs: [number, number, number] = [code & 4 ? 1 : -1, code & 2 ? 1 : -1, code & 1 ? 1 : -1]
      const axes = new Float64Array(9)
      for (let j = 0; j < 3; j++) axes[3 * perm[j]! + j] = signs[j]!
      // det A = sign(perm) · s0·s1·s2; keep proper matrices only.
      const parity = perm[0] === 0 ? (perm[1] === 1 ? 1 : -1) : perm[0] === 1 ? (perm[1] === 0 ? -1 : 1) : (perm[1] === 0 ? 1 : -1)
      if (parity * signs[0] * signs[1] * signs[2] > 0) {
        out.push({ name: `pca-${out.length}`, permutation: [perm[0], perm[1], perm[2]], signs, axes })
      }
    }
  }
  return out
}

/** The 24 PCA starts: R = B_T·A·B_Pᵀ, t = c_T − R·c_P (§6.2). */
export function pcaStarts(prediction: PcaFrame, target: PcaFrame): AlignmentStart[] {
  const bpT = transposeMat3(new Float64Array(9), prediction.basis)
  const c = prediction.center
  return pcaSeedAxes().map(({ name, axes }) => {
    const rotation = multiplyMat3(new Float64Array(9), multiplyMat3(new Float64Array(9), target.basis, axes), bpT)
    const translation = new Float64Array(3)
    for (let r = 0; r < 3; r++) {
      translation[r] = target.center[r]! - (rotation[3 * r]! * c[0]! + rotation[3 * r + 1]! * c[1]! + rotation[3 * r + 2]! * c[2]!)
    }
    return { name, rotation, translation }
  })
}

/**
 * The start `part-<index>` that moves predicted part i exactly onto its GT copy (§6.3): R = G·Rpᵀ,
 * t = (g − R·p) / d, with (Rp, p) the final pose, (G, g) the GT pose and d the scale divisor.
 */
export function partStart(
  index: number, gtRotation: ArrayLike<number>, gtTranslation: ArrayLike<number>,
  finalRotation: ArrayLike<number>, finalPosition: ArrayLike<number>, scaleDivisor: number,
): AlignmentStart {
  const rotation = multiplyMat3(new Float64Array(9), gtRotation, transposeMat3(new Float64Array(9), finalRotation))
  const translation = new Float64Array(3)
  for (let r = 0; r < 3; r++) {
    const rp = rotation[3 * r]! * finalPosition[0]! + rotation[3 * r + 1]! * finalPosition[1]! + rotation[3 * r + 2]! * finalPosition[2]!
    translation[r] = (gtTranslation[r]! - rp) / scaleDivisor
  }
  return { name: `part-${index}`, rotation, translation }
}
