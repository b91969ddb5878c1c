// Parses a final-poses file for `awb score --poses` into row-major rotations and positions; scores nothing.
import * as z from 'zod'
import { quaternionToMatrix } from '../../scoring/index.ts'
import type { BodyPose } from '../../world/index.ts'
import { EvaluateError } from '../errors.ts'

/** A proper rotation's rows are orthonormal to this tolerance; anything looser is a typo, not roundoff. */
const ROTATION_ORTHONORMAL_TOLERANCE = 1e-6

const Finite = z.number().finite()
const Vec3 = z.tuple([Finite, Finite, Finite])

const PoseSchema = z.union([
  z.strictObject({ position: Vec3, quaternion: z.tuple([Finite, Finite, Finite, Finite]) }),
  z.strictObject({ position: Vec3, rotation: z.tuple([Vec3, Vec3, Vec3]) }),
])

const PosesSchema = z.record(z.string(), PoseSchema)

/** The accepted file: `{"<part_id>": pose}` or the same map wrapped as `{"poses": …}`. */
const PosesFileSchema = z.union([z.strictObject({ poses: PosesSchema }).transform(file => file.poses), PosesSchema])

/**
 * Returns one pose per part of `partIds`, in that order. Quaternions are `[w, x, y, z]` and normalised;
 * `rotation` is a row-major 3×3 that must be a proper rotation. Every part is required; extra ids are rejected.
 */
export function parsePosesFile(value: unknown, partIds: readonly string[], file: string): BodyPose[] {
  const parsed = PosesFileSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue === undefined || issue.path.length === 0 ? '(root)' : issue.path.join('.')
    throw new EvaluateError('EVALUATE_POSES_INVALID', `${issue?.message ?? 'invalid'}; each pose must be {"position": [x,y,z], "quaternion": [w,x,y,z]} or {"position": [x,y,z], "rotation": 3×3 rows}`, { file, field: where })
  }
  const poses = parsed.data
  const missing = partIds.filter(id => !Object.hasOwn(poses, id))
  const known = new Set(partIds)
  const extra = Object.keys(poses).filter(id => !known.has(id))
  if (missing.length > 0 || extra.length > 0) {
    const parts = [missing.length > 0 ? `missing ${missing.join(', ')}` : '', extra.length > 0 ? `unknown ${extra.join(', ')}` : ''].filter(Boolean)
    throw new EvaluateError('EVALUATE_POSES_PARTS', `the poses must name exactly the evaluation's parts (${parts.join('; ')})`, { file })
  }
  return partIds.map((id) => {
    const pose = poses[id]!
    const rotation = new Float64Array(9)
    if ('quaternion' in pose) quaternionToMatrix(rotation, pose.quaternion, 0, `quaternion of part "${id}" in ${file}`)
    else {
      rotation.set(pose.rotation.flat())
      assertProperRotation(rotation, id, file)
    }
    return { rotation, position: Float64Array.from(pose.position) }
  })
}

function assertProperRotation(m: Float64Array, id: string, file: string): void {
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const dot = m[3 * i]! * m[3 * j]! + m[3 * i + 1]! * m[3 * j + 1]! + m[3 * i + 2]! * m[3 * j + 2]!
      if (Math.abs(dot - (i === j ? 1 : 0)) > ROTATION_ORTHONORMAL_TOLERANCE) {
        throw new EvaluateError('EVALUATE_POSES_INVALID', `rotation of part "${id}" is not orthonormal (rows ${i}·${j} = ${dot}); give a proper rotation matrix or a quaternion`, { file, field: `${id}.rotation` })
      }
    }
  }
  const det = m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) - m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) + m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!)
  if (det <= 0) throw new EvaluateError('EVALUATE_POSES_INVALID', `rotation of part "${id}" is a reflection (det ${det}); give a proper rotation`, { file, field: `${id}.rotation` })
}
