// The seeded synthetic sample `auto` times both backends on (and the GPU check benchmarks); pure: no clock, no I/O.
import type { SampleInput } from '../prepare-sample.ts'
import { mulberry32 } from '../../shared/mulberry32.ts'

/** Points per part of the calibration sample (evaluation.json parts have 1000). */
export const CALIBRATION_POINTS_PER_PART = 1000

/**
 * A chair-like sample of `parts` boxes (`pointsPerPart` surface-ish points each, seeded), the prediction displaced by
 * a small rotation of the first part and a shift of the second, so ICP runs a few dozen iterations per start.
 */
export function calibrationSample(parts: number, pointsPerPart: number = CALIBRATION_POINTS_PER_PART, seed = 18): SampleInput {
  const rand = mulberry32(seed)
  const partIds: string[] = []
  const clouds: Float64Array[] = []
  const gtPoses: number[][] = []
  const finalPoses: { rotation: number[]; position: number[] }[] = []
  for (let p = 0; p < parts; p++) {
    partIds.push(`part-${String(p).padStart(4, '0')}`)
    const sx = 0.05 + 0.45 * rand(), sy = 0.05 + 0.45 * rand(), sz = 0.05 + 0.2 * rand()
    const cloud = new Float64Array(3 * pointsPerPart)
    for (let i = 0; i < pointsPerPart; i++) {
      cloud[3 * i] = (rand() - 0.5) * sx
      cloud[3 * i + 1] = (rand() - 0.5) * sy
      cloud[3 * i + 2] = (rand() - 0.5) * sz
    }
    clouds.push(cloud)
    const position = [(p % 3) * 0.3, Math.floor(p / 3) * 0.3, 0.1 * (p % 2)]
    gtPoses.push([...position, 1, 0, 0, 0])
    const c = Math.cos(p === 0 ? 0.2 : 0), s = Math.sin(p === 0 ? 0.2 : 0)
    finalPoses.push({ rotation: [c, -s, 0, s, c, 0, 0, 0, 1], position: [position[0]! + (p === 1 ? 0.08 : 0), position[1]!, position[2]!] })
  }
  return { partIds, clouds, gtPoses, finalPoses, groups: partIds.map(id => [id]), scaleDivisor: 1 }
}
