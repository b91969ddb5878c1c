// Structural and key checks of one evaluation.json (§7, scoring §2) into typed arrays; no file access, no scoring.
import { createThrowingSink, ScopedSink, type CheckSink } from './check-sink.ts'
import { PackageError, type PackageErrorCode } from './errors.ts'
import { compareCodePoints } from '../shared/code-points.ts'
import { deepEqualJson } from './json-values.ts'
import {
  EVALUATION_PROTOCOLS,
  type EvaluationProtocol,
  isEvaluationProtocol,
  PREPARATION_PARAMETERS,
  PREPARATION_PROTOCOL,
  SIMILARITY_POLICY,
  SIMILARITY_THRESHOLD,
} from './protocol-constants.ts'
import { parseWithSchema } from './schema-problems.ts'
import { EvaluationEnvelopeSchema, type EvaluationEnvelope, type Identity } from './schemas.ts'

/** Points per part in every evaluation.json: the preparation's farthest-point sample count (scoring.md §2.1). */
export const EVALUATION_POINTS_PER_PART = PREPARATION_PARAMETERS.fps_points
/** Numbers per GT pose: `[tx, ty, tz, qw, qx, qy, qz]`. */
export const GT_POSE_LENGTH = 7
/** Smallest accepted GT quaternion norm (scoring §2). */
export const MIN_QUATERNION_NORM = 1e-12

/** What the package says this evaluation.json must be keyed to (§7); all fields come from config.json. */
export interface EvaluationExpectation {
  sampleId: string
  identity: Identity
  initialSha256: string
  parts: number
}

export interface ParseEvaluationOptions {
  /** File named in errors, relative to the package root (or as the user gave it). */
  file: string
  /** When given, the key must match the package (sample id, identity, initial hash, parts). */
  expect?: EvaluationExpectation
}

/** A checked evaluation.json. Arrays are index-aligned with `partIds` (code-point order, = `part-0001`…). */
export interface Evaluation {
  /** The protocol marker as written in the file (v1 and v2 are the same protocol, §12). */
  protocol: EvaluationProtocol
  /** `key.sample_id`, when the file has one. */
  sampleId: string | undefined
  partIds: string[]
  /** Per part, 1000 points as interleaved `x0, y0, z0, x1, …` (3000 numbers), in the part-local frame. */
  points: Float64Array[]
  /** Per part, `[tx, ty, tz, qw, qx, qy, qz]` (quaternion as written, not normalized). */
  gtPoses: Float64Array[]
  /** Finite, > 0; scoring divides every length by it. */
  scaleDivisor: number
  /** Equivalence groups: a partition of `partIds`, in file order. */
  groups: string[][]
  /** The raw `key` object, for diagnostics. */
  key: EvaluationEnvelope['key']
}

/**
 * Largest coordinate magnitude of ground truth (points, pose translations, points over the scale divisor).
 * Scoring sums thousands of squared distances: a finite coordinate above ~1e154 squares to Infinity and every
 * score of the sample would be NaN, so such ground truth is refused here, where it can be fixed.
 */
export const MAX_GT_COORDINATE = 1e150

/** Parses and checks one evaluation.json value; throws the first broken rule as a `PackageError`. */
export function parseEvaluation(value: unknown, options: ParseEvaluationOptions): Evaluation {
  const evaluation = checkEvaluation(value, options, createThrowingSink())
  if (evaluation === undefined) throw new Error('unreachable: a throwing sink never returns a failed check')
  return evaluation
}

/** The checks of `parseEvaluation`, reporting every broken rule to `sink`; undefined when any rule broke. */
export function checkEvaluation(value: unknown, options: ParseEvaluationOptions, parent: CheckSink): Evaluation | undefined {
  const sink = new ScopedSink(parent)
  const { file } = options
  const envelope = parseWithSchema(EvaluationEnvelopeSchema, value, { file, what: 'evaluation.json' }, sink)
  if (envelope === undefined) return undefined
  const fail = (code: PackageErrorCode, field: string, message: string, fix: string): void =>
    sink.problem(new PackageError(code, { file, field, message, fix }))
  const GT_FIX = 'The ground truth is damaged: restore evaluation.json from the pinned package revision'

  const protocol = envelope.key.evaluation_protocol
  if (!isEvaluationProtocol(protocol)) {
    fail('PACKAGE_UNKNOWN_PROTOCOL', 'key.evaluation_protocol', `unknown evaluation protocol marker ${JSON.stringify(protocol)}: expected ${EVALUATION_PROTOCOLS.map(name => JSON.stringify(name)).join(' or ')}`, 'Use a package built for the assembly-evaluation protocol')
  }
  const { similarity } = envelope.key
  if (similarity.policy !== SIMILARITY_POLICY || similarity.threshold !== SIMILARITY_THRESHOLD) {
    fail('PACKAGE_EVALUATION', 'key.similarity', `similarity must have policy "${SIMILARITY_POLICY}" and threshold ${SIMILARITY_THRESHOLD}, got ${JSON.stringify(similarity.policy)} / ${similarity.threshold}`, GT_FIX)
  }
  if (!deepEqualJson(envelope.equivalence.protocol, similarity)) {
    fail('PACKAGE_EVALUATION', 'equivalence.protocol', 'equivalence.protocol must deep-equal key.similarity', GT_FIX)
  }
  if (!(Number.isFinite(envelope.scale_divisor) && envelope.scale_divisor > 0)) {
    fail('PACKAGE_EVALUATION', 'scale_divisor', `scale_divisor must be a finite number > 0, got ${envelope.scale_divisor} (Invalid GT scale)`, GT_FIX)
  }
  if (envelope.key.preparation_protocol !== undefined && envelope.key.preparation_protocol !== PREPARATION_PROTOCOL) {
    fail('PACKAGE_EVALUATION', 'key.preparation_protocol', `preparation protocol must be "${PREPARATION_PROTOCOL}", got ${JSON.stringify(envelope.key.preparation_protocol)}`, GT_FIX)
  }
  const { partIds, isOrdered } = checkPartIds(envelope, file, sink)
  const points = isOrdered ? readPoints(envelope, file, sink) : []
  const gtPoses = isOrdered ? readGtPoses(envelope, file, sink) : []
  if (isOrdered) checkGroups(envelope.equivalence.groups, partIds, file, sink)
  if (options.expect !== undefined) checkKeyAgainstPackage(envelope, options.expect, file, sink)

  if (!sink.isClean || !isEvaluationProtocol(protocol)) return undefined
  return {
    protocol,
    sampleId: envelope.key.sample_id,
    partIds,
    points,
    gtPoses,
    scaleDivisor: envelope.scale_divisor,
    groups: envelope.equivalence.groups,
    key: envelope.key,
  }
}

function checkPartIds(envelope: EvaluationEnvelope, file: string, sink: CheckSink): { partIds: string[]; isOrdered: boolean } {
  const partIds = envelope.part_ids
  let isOrdered = true
  for (let i = 1; i < partIds.length; i += 1) {
    const order = compareCodePoints(partIds[i - 1] ?? '', partIds[i] ?? '')
    if (order < 0) continue
    isOrdered = false
    sink.problem(new PackageError('PACKAGE_EVALUATION', {
      file,
      field: `part_ids[${i}]`,
      message: order === 0
        ? `part id ${JSON.stringify(partIds[i])} appears twice: part_ids must be unique`
        : `part_ids must be sorted in plain code-point order, but ${JSON.stringify(partIds[i - 1])} comes before ${JSON.stringify(partIds[i])}`,
      fix: 'Restore evaluation.json from the pinned package revision (part order maps part ids to part-0001…)',
    }))
  }
  if (envelope.key.parts !== partIds.length) {
    isOrdered = false
    sink.problem(new PackageError('PACKAGE_EVALUATION', {
      file,
      field: 'key.parts',
      message: `key.parts is ${envelope.key.parts} but part_ids has ${partIds.length} entries`,
      fix: 'Restore evaluation.json from the pinned package revision',
    }))
  }
  return { partIds, isOrdered }
}

function readPoints(envelope: EvaluationEnvelope, file: string, sink: CheckSink): Float64Array[] {
  const out: Float64Array[] = []
  for (const partId of envelope.part_ids) {
    const field = `points.${partId}`
    const rows = envelope.points[partId]
    const fail = (message: string): void => {
      sink.problem(new PackageError('PACKAGE_EVALUATION', { file, field, message, fix: 'Restore evaluation.json from the pinned package revision' }))
    }
    if (!Array.isArray(rows) || rows.length !== EVALUATION_POINTS_PER_PART) {
      fail(`part ${JSON.stringify(partId)} must have exactly ${EVALUATION_POINTS_PER_PART} points, got ${Array.isArray(rows) ? rows.length : 'no point list'}`)
      continue
    }
    const flat = new Float64Array(EVALUATION_POINTS_PER_PART * 3)
    let bad = -1
    for (let row = 0; row < EVALUATION_POINTS_PER_PART && bad < 0; row += 1) {
      const point: unknown = rows[row]
      if (!Array.isArray(point) || point.length !== 3) bad = row
      else {
        for (let axis = 0; axis < 3; axis += 1) {
          const coordinate: unknown = point[axis]
          if (typeof coordinate !== 'number' || !Number.isFinite(coordinate)) bad = row
          else flat[row * 3 + axis] = coordinate
        }
      }
    }
    const huge = bad >= 0 ? -1 : flat.findIndex(value => !isSquareSafe(value, envelope.scale_divisor))
    if (bad >= 0) fail(`Nonfinite points: row ${bad} of part ${JSON.stringify(partId)} must be 3 finite numbers`)
    else if (huge >= 0) fail(`Nonfinite points after squaring: row ${Math.floor(huge / 3)} of part ${JSON.stringify(partId)} has ${flat[huge]} (scale divisor ${envelope.scale_divisor}); coordinates must stay within ±${MAX_GT_COORDINATE} so that squared distances are finite`)
    else out.push(flat)
  }
  return out
}

function readGtPoses(envelope: EvaluationEnvelope, file: string, sink: CheckSink): Float64Array[] {
  const out: Float64Array[] = []
  for (const partId of envelope.part_ids) {
    const field = `gt_poses.${partId}`
    const fix = 'Restore evaluation.json from the pinned package revision'
    const pose = envelope.gt_poses[partId]
    const typed = new Float64Array(GT_POSE_LENGTH)
    let isFinitePose = Array.isArray(pose) && pose.length === GT_POSE_LENGTH
    for (let i = 0; isFinitePose && i < GT_POSE_LENGTH; i += 1) {
      const number: unknown = Array.isArray(pose) ? pose[i] : undefined
      if (typeof number === 'number' && Number.isFinite(number)) typed[i] = number
      else isFinitePose = false
    }
    if (!isFinitePose) {
      sink.problem(new PackageError('PACKAGE_EVALUATION', { file, field, message: `Nonfinite GT: the pose of part ${JSON.stringify(partId)} must be 7 finite numbers [tx, ty, tz, qw, qx, qy, qz]`, fix }))
      continue
    }
    if (!typed.subarray(0, 3).every(value => isSquareSafe(value, envelope.scale_divisor))) {
      sink.problem(new PackageError('PACKAGE_EVALUATION', { file, field, message: `Nonfinite GT after squaring: the translation of part ${JSON.stringify(partId)} must stay within ±${MAX_GT_COORDINATE} (also over the scale divisor ${envelope.scale_divisor}) so that squared distances are finite`, fix }))
      continue
    }
    const norm = Math.hypot(typed[3] ?? 0, typed[4] ?? 0, typed[5] ?? 0, typed[6] ?? 0)
    if (norm < MIN_QUATERNION_NORM) {
      sink.problem(new PackageError('PACKAGE_EVALUATION', { file, field, message: `Expected a finite nonzero wxyz quaternion for part ${JSON.stringify(partId)} (norm ${norm} < ${MIN_QUATERNION_NORM})`, fix }))
      continue
    }
    out.push(typed)
  }
  return out
}

/** Whether `value` and `value / scaleDivisor` square to finite numbers with room for sums of thousands. */
function isSquareSafe(value: number, scaleDivisor: number): boolean {
  const scaled = Number.isFinite(scaleDivisor) && scaleDivisor > 0 ? value / scaleDivisor : value
  return Math.abs(value) <= MAX_GT_COORDINATE && Math.abs(scaled) <= MAX_GT_COORDINATE
}

function checkGroups(groups: string[][], partIds: string[], file: string, sink: CheckSink): void {
  const known = new Set(partIds)
  const seen = new Set<string>()
  const fail = (field: string, message: string): void => {
    sink.problem(new PackageError('PACKAGE_EVALUATION', { file, field, message: `equivalence.groups must be a partition of part_ids: ${message}`, fix: 'Restore evaluation.json from the pinned package revision' }))
  }
  groups.forEach((group, index) => {
    if (group.length === 0) fail(`equivalence.groups[${index}]`, 'the group is empty')
    for (const member of group) {
      if (!known.has(member)) fail(`equivalence.groups[${index}]`, `${JSON.stringify(member)} is not a part id`)
      else if (seen.has(member)) fail(`equivalence.groups[${index}]`, `${JSON.stringify(member)} is in more than one group`)
      seen.add(member)
    }
  })
  const missing = partIds.filter(id => !seen.has(id))
  if (missing.length > 0) fail('equivalence.groups', `no group contains ${missing.map(id => JSON.stringify(id)).join(', ')}`)
}

function checkKeyAgainstPackage(envelope: EvaluationEnvelope, expect: EvaluationExpectation, file: string, sink: CheckSink): void {
  const { key } = envelope
  const fail = (field: string, message: string): void => {
    sink.problem(new PackageError('PACKAGE_MISMATCH', { file, field, message, fix: 'evaluation.json belongs to another sample or preparation: restore it from the pinned package revision' }))
  }
  if (key.sample_id !== expect.sampleId) fail('key.sample_id', `key.sample_id is ${JSON.stringify(key.sample_id)} but the file belongs to sample ${JSON.stringify(expect.sampleId)}`)
  if (key.identity === undefined || !deepEqualJson(key.identity, expect.identity)) fail('key.identity', 'key.identity must deep-equal the identity of the block\'s config.json')
  if (key.initial_sha256 !== expect.initialSha256) fail('key.initial_sha256', `key.initial_sha256 is ${JSON.stringify(key.initial_sha256)} but config.json records ${expect.initialSha256} for the initial episode`)
  if (key.parts !== expect.parts) fail('key.parts', `key.parts is ${key.parts} but config.json records ${expect.parts} parts`)
  if (key.preparation_protocol === undefined || key.preparation_protocol !== expect.identity.protocol) {
    fail('key.preparation_protocol', `key.preparation_protocol is ${JSON.stringify(key.preparation_protocol)} but must equal identity.protocol ${JSON.stringify(expect.identity.protocol)}`)
  }
}
