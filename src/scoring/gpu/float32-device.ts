// A NearestDevice that runs the GPU kernel's arithmetic on the CPU in float32 (Math.fround): for tests and for the
// exactness path without a browser; as slow as brute force, never a speed-up.
import { GPU_NO_CANDIDATE } from './certify.ts'
import type { NearestAnswers, NearestDevice, NearestGroup } from './device.ts'

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
    const f = Math.fround
    for (let k = 0; k < maps; k++) {
      const a = group.affines, b = 12 * k
      for (let i = 0; i < n; i++) {
        const sx = src[3 * i]!, sy = src[3 * i + 1]!, sz = src[3 * i + 2]!
        const x = f(f(f(f(a[b]! * sx) + f(a[b + 1]! * sy)) + f(a[b + 2]! * sz)) + a[b + 9]!)
        const y = f(f(f(f(a[b + 3]! * sx) + f(a[b + 4]! * sy)) + f(a[b + 5]! * sz)) + a[b + 10]!)
        const z = f(f(f(f(a[b + 6]! * sx) + f(a[b + 7]! * sy)) + f(a[b + 8]! * sz)) + a[b + 11]!)
        let best = GPU_NO_CANDIDATE, next = GPU_NO_CANDIDATE, bi = -1
        for (let j = 0; j < m; j++) {
          const dx = f(x - dst[3 * j]!), dy = f(y - dst[3 * j + 1]!), dz = f(z - dst[3 * j + 2]!)
          const d = f(f(f(dx * dx) + f(dy * dy)) + f(dz * dz))
          if (d < best) { next = best; best = d; bi = j } else if (d < next) next = d
        }
        index[k * n + i] = bi
        second[k * n + i] = next
      }
    }
    return { index, second }
  }
}
