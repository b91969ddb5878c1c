// Validates one sample's plain inputs and builds its prediction/target clouds and part starts (scoring.md §2, §4, §6.3); no ICP.
// Convention: rotations are row-major Float64Array(9); clouds are flat xyz Float64Arrays.
import { ScoringError } from './errors.ts'
import { quaternionToMatrix } from './mat3.ts'
import { partStart, type AlignmentStart } from './starts.ts'

/** A final body pose: world rotation (row-major 3×3) and position, as read from MuJoCo xmat/xpos (§3.3). */
export interface FinalPose {
  rotation: ArrayLike<number>
  position: ArrayLike<number>
}

/** Everything `scoreSample` needs, as plain typed data. Parts are indexed in the order of `partIds`. */
export interface SampleInput {
  /** Unique part ids in plain code-point order (§2). */
  partIds: readonly string[]
  /** Local point cloud of each part: flat xyz, 3 · points (1000 points in evaluation.json). */
  clouds: readonly ArrayLike<number>[]
  /** GT pose of each part: [tx, ty, tz, qw, qx, qy, qz] (normalised when used). */
  gtPoses: readonly ArrayLike<number>[]
  /** Final pose of each part. */
  finalPoses: readonly FinalPose[]
  /** Equivalence groups as lists of part ids; must partition `partIds`. */
  groups: readonly (readonly string[])[]
  /** Scale divisor (finite, > 0); every coordinate is divided by it. */
  scaleDivisor: number
}

export interface PrepareOptions {
  /** When set, every cloud must have exactly this many points (evaluation.json requires 1000). */
  pointsPerPart?: number
}

/** Validated, transformed sample data (§4) plus the part starts (§6.3). */
export interface PreparedSample {
  partIds: string[]
  /** Groups as index lists into `partIds`, in input order. */
  groups: number[][]
  predictionParts: Float64Array[]
  targetParts: Float64Array[]
  /** Concatenation of `predictionParts` in part order. */
  prediction: Float64Array
  /** Concatenation of `targetParts` in part order. */
  target: Float64Array
  partStarts: AlignmentStart[]
  scaleDivisor: number
}

/** Checks every input rule of §2 / §8.2 and throws a `ScoringError` naming the part and the rule. */
export function prepareSample(input: SampleInput, options: PrepareOptions = {}): PreparedSample {
  const { partIds, clouds, gtPoses, finalPoses, scaleDivisor } = input
  if (!Number.isFinite(scaleDivisor) || !(scaleDivisor > 0)) {
    throw new ScoringError('SCORING_BAD_DIVISOR', `scale_divisor: must be a finite number > 0, got ${scaleDivisor}; check evaluation.json`)
  }
  if (partIds.length === 0) throw new ScoringError('SCORING_BAD_INPUT', 'part_ids: a sample needs at least one part')
  for (let i = 1; i < partIds.length; i++) {
    if (!(partIds[i - 1]! < partIds[i]!)) {
      throw new ScoringError('SCORING_BAD_INPUT', `part_ids: must be unique and sorted in code-point order, but "${partIds[i - 1]}" comes before "${partIds[i]}"`)
    }
  }
  const n = partIds.length
  for (const [what, list] of [['clouds', clouds], ['gt_poses', gtPoses], ['final poses', finalPoses]] as const) {
    if (list.length !== n) throw new ScoringError('SCORING_BAD_INPUT', `${what}: expected one entry per part (${n}), got ${list.length}`)
  }
  const groups = groupIndices(input.groups, partIds)
  const predictionParts: Float64Array[] = []
  const targetParts: Float64Array[] = []
  const partStarts: AlignmentStart[] = []
  const gtRotation = new Float64Array(9)
  for (let i = 0; i < n; i++) {
    const id = partIds[i]!
    const cloud = clouds[i]!
    checkCloud(cloud, id, options.pointsPerPart)
    const gt = gtPoses[i]!
    if (gt.length !== 7) throw new ScoringError('SCORING_NONFINITE_GT', `gt_poses["${id}"]: expected 7 numbers [tx, ty, tz, qw, qx, qy, qz], got ${gt.length}`)
    for (let k = 0; k < 7; k++) {
      if (!Number.isFinite(gt[k]!)) throw new ScoringError('SCORING_NONFINITE_GT', `gt_poses["${id}"][${k}]: Nonfinite GT value ${gt[k]}; every GT pose number must be finite`)
    }
    quaternionToMatrix(gtRotation, gt, 3, `gt_poses["${id}"]`)
    const pose = finalPoses[i]!
    if (pose.rotation.length !== 9 || pose.position.length !== 3) {
      throw new ScoringError('SCORING_NONFINITE_POSE', `final pose of part "${id}": expected a 9-number rotation and a 3-number position`)
    }
    for (let k = 0; k < 9; k++) if (!Number.isFinite(pose.rotation[k]!)) throw nonfinitePose(id, 'rotation', k)
    for (let k = 0; k < 3; k++) if (!Number.isFinite(pose.position[k]!)) throw nonfinitePose(id, 'position', k)
    const gtTranslation = [gt[0]!, gt[1]!, gt[2]!]
    predictionParts.push(placeCloud(cloud, pose.rotation, pose.position, scaleDivisor))
    targetParts.push(placeCloud(cloud, gtRotation, gtTranslation, scaleDivisor))
    partStarts.push(partStart(i, gtRotation, gtTranslation, pose.rotation, pose.position, scaleDivisor))
  }
  return {
    partIds: [...partIds],
    groups,
    predictionParts,
    targetParts,
    prediction: concat(predictionParts),
    target: concat(targetParts),
    partStarts,
    scaleDivisor,
  }
}

function nonfinitePose(id: string, field: string, k: number): ScoringError {
  return new ScoringError('SCORING_NONFINITE_POSE', `final pose of part "${id}": ${field}[${k}] is not finite; the final episode state is invalid`)
}

function checkCloud(cloud: ArrayLike<number>, id: string, required: number | undefined): void {
  if (cloud.length === 0 || cloud.length % 3 !== 0) {
    throw new ScoringError('SCORING_BAD_CLOUD_SIZE', `points["${id}"]: expected rows of 3 numbers and at least one point, got ${cloud.length} numbers`)
  }
  if (required !== undefined && cloud.length !== 3 * required) {
    throw new ScoringError('SCORING_BAD_CLOUD_SIZE', `points["${id}"]: expected exactly ${required} points, got ${cloud.length / 3}; the evaluation data is incomplete or corrupted`)
  }
  for (let k = 0; k < cloud.length; k++) {
    if (!Number.isFinite(cloud[k]!)) {
      throw new ScoringError('SCORING_NONFINITE_POINTS', `points["${id}"][${Math.floor(k / 3)}][${k % 3}]: Nonfinite points (value ${cloud[k]}); every coordinate must be finite`)
    }
  }
}

/** Groups of ids → index lists; throws `SCORING_BAD_PARTITION` unless they partition the part ids. */
export function groupIndices(groups: readonly (readonly string[])[], partIds: readonly string[]): number[][] {
  const index = new Map(partIds.map((id, i) => [id, i]))
  const seen = new Set<string>()
  const out: number[][] = []
  groups.forEach((group, g) => {
    if (group.length === 0) throw new ScoringError('SCORING_BAD_PARTITION', `equivalence.groups[${g}]: is empty; every group needs at least one part id`)
    out.push(group.map(id => {
      const i = index.get(id)
      if (i === undefined) throw new ScoringError('SCORING_BAD_PARTITION', `equivalence.groups[${g}]: unknown part id "${id}"; groups must partition part_ids`)
      if (seen.has(id)) throw new ScoringError('SCORING_BAD_PARTITION', `equivalence.groups[${g}]: part id "${id}" appears in more than one place; groups must partition part_ids`)
      seen.add(id)
      return i
    }))
  })
  const missing = partIds.filter(id => !seen.has(id))
  if (missing.length > 0) {
    throw new ScoringError('SCORING_BAD_PARTITION', `equivalence.groups: part ids ${missing.map(id => `"${id}"`).join(', ')} are in no group; groups must partition part_ids`)
  }
  return out
}

/** (C · Rᵀ + p) / d for the flat local cloud C (§4). */
function placeCloud(cloud: ArrayLike<number>, r: ArrayLike<number>, p: ArrayLike<number>, d: number): Float64Array {
  const out = new Float64Array(cloud.length)
  const r0 = r[0]!, r1 = r[1]!, r2 = r[2]!, r3 = r[3]!, r4 = r[4]!, r5 = r[5]!, r6 = r[6]!, r7 = r[7]!, r8 = r[8]!
  const p0 = p[0]!, p1 = p[1]!, p2 = p[2]!
  for (let i = 0; i < cloud.length; i += 3) {
    const x = cloud[i]!, y = cloud[i + 1]!, z = cloud[i + 2]!
    out[i] = (r0 * x + r1 * y + r2 * z + p0) / d
    out[i + 1] = (r3 * x + r4 * y + r5 * z + p1) / d
    out[i + 2] = (r6 * x + r7 * y + r8 * z + p2) / d
  }
  return out
}

function concat(parts: readonly Float64Array[]): Float64Array {
  let total = 0
  for (const p of parts) total += p.length
  const out = new Float64Array(total)
  let offset = 0
  for (const p of parts) {
    out.set(p, offset)
    offset += p.length
  }
  return out
}
