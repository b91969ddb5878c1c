// A NearestDevice that runs the GPU kernel's arithmetic on the CPU in float32 (Math.fround): for tests and for the
// exactness path without a browser; as slow as brute force, never a speed-up.
import { GPU_NO_CANDIDATE } from './certify.ts'
import type { NearestAnswers, NearestDevice, NearestGroup } from './device.ts'

/** The kernel's float32 query x = A·s + b for map `b / 12` of `affines`, operation for operation, into `out`. */
export function float32Query(out: Float64Array, affines: Float32Array, b: number, sx: number, sy: number, sz: number): Float64Array {
  const f = Math.fround, a = affines
  out[0] = f(f(f(f(a[b]! * sx) + f(a[b + 1]! * sy)) + f(a[b + 2]! * sz)) + a[b + 9]!)
  out[1] = f(f(f(f(a[b + 3]! * sx) + f(a[b + 4]! * sy)) + f(a[b + 5]! * sz)) + a[b + 10]!)
  out[2] = f(f(f(f(a[b + 6]! * sx) + f(a[b + 7]! * sy)) + f(a[b + 8]! * sz)) + a[b + 11]!)
  return out
}

/** The kernel's float32 squared distance from query (x, y, z) to point j of `cloud`, operation for operation. */
export function float32DistanceSq(x: number, y: number, z: number, cloud: Float32Array, j: number): number {
  const f = Math.fround
  const dx = f(x - cloud[3 * j]!), dy = f(y - cloud[3 * j + 1]!), dz = f(z - cloud[3 * j + 2]!)
  return f(f(f(dx * dx) + f(dy * dy)) + f(dz * dz))
}

/** Brute-force float32 nearest search, the same loop the page kernel runs (gpu-nearest-kernel.ts). */
export class Float32EmulationDevice implements NearestDevice {
  readonly renderer: string = 'float32 emulation (CPU)'
  readonly mode: string = 'emulation'
  private readonly clouds = new Map<number, Float32Array>()
  private nextId = 0

  async upload(cloud: Float32Array): Promise<number> {
    const id = this.nextId++
    this.clouds.set(id, cloud.slice())
    return id
  }

  async release(ids: readonly number[]): Promise<void> {
    for (const id of ids) this.clouds.delete(id)
  }

  async nearest(groups: readonly NearestGroup[]): Promise<NearestAnswers[]> {
    return groups.map(group => this.runGroup(group))
  }

  async close(): Promise<void> {
    this.clouds.clear()
  }

  /** An uploaded cloud; throws RangeError when it was released or never uploaded. */
  protected cloud(id: number): Float32Array {
    const cloud = this.clouds.get(id)
    if (cloud === undefined) throw new RangeError(`Float32EmulationDevice: no cloud ${id} (released or never uploaded)`)
    return cloud
  }

  /** One group's answers (a subclass may compute the same answers faster). */
  protected runGroup(group: NearestGroup): NearestAnswers {
    const src = this.cloud(group.source), dst = this.cloud(group.target)
    const n = src.length / 3, m = dst.length / 3
    const maps = group.affines.length / 12
    const index = new Float32Array(n * maps), second = new Float32Array(n * maps)
    const q = new Float64Array(3)
    for (let k = 0; k < maps; k++) {
      const b = 12 * k
      for (let i = 0; i < n; i++) {
        float32Query(q, group.affines, b, src[3 * i]!, src[3 * i + 1]!, src[3 * i + 2]!)
        const x = q[0]!, y = q[1]!, z = q[2]!
        let best = GPU_NO_CANDIDATE, next = GPU_NO_CANDIDATE, bi = -1
        for (let j = 0; j < m; j++) {
          const d = float32DistanceSq(x, y, z, dst, j)
          if (d < best) { next = best; best = d; bi = j } else if (d < next) next = d
        }
        index[k * n + i] = bi
        second[k * n + i] = next
      }
    }
    return { index, second }
  }
}
