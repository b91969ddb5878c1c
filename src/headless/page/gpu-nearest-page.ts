// The GPU scoring page: float32 brute-force nearest-neighbour candidates with gpu.js (WebGL2) for the Node side's
// lockstep scorer. Page code: no `node:` imports; no certification, no scoring, no ground truth (clouds and maps only).
import { GPU, type IGPUKernelSettings, type IKernelRunShortcut } from 'gpu.js'
import * as z from 'zod'
import { base64ToBytes, bytesToBase64 } from '../headless-page-messages.ts'
import {
  GPU_NEAREST_GLOBAL, GpuNearestRequestSchema, GpuUploadRequestSchema,
  type GpuInfo, type GpuNearestPageApi, type GpuNearestRequest, type GpuNearestResponse, type GpuUploadRequest,
} from '../gpu-nearest-messages.ts'

interface KernelThis { thread: { x: number; y: number } }

/**
 * Thread (x = source point i, y = map k): moves source point i by map k, scans every target point and returns the
 * nearest index; `keepSecond` records the nearest distance among the OTHER points (ties go to `second`, so an exact
 * float32 tie never certifies). gpu.js transpiles this function to GLSL: plain arithmetic, no closures.
 */
function nearestKernel(this: KernelThis, src: number[], dst: number[], maps: number[], m: number): number {
  const i = this.thread.x, k = this.thread.y
  const sx = src[i * 3]!, sy = src[i * 3 + 1]!, sz = src[i * 3 + 2]!
  const b = k * 12
  const x = maps[b]! * sx + maps[b + 1]! * sy + maps[b + 2]! * sz + maps[b + 9]!
  const y = maps[b + 3]! * sx + maps[b + 4]! * sy + maps[b + 5]! * sz + maps[b + 10]!
  const z = maps[b + 6]! * sx + maps[b + 7]! * sy + maps[b + 8]! * sz + maps[b + 11]!
  // 1e30 is GPU_NO_CANDIDATE of src/scoring/gpu/certify.ts (a literal: gpu.js cannot read module constants).
  let best = 1e30
  let second = 1e30
  let bi = -1
  for (let j = 0; j < m; j++) {
    const dx = x - dst[j * 3]!, dy = y - dst[j * 3 + 1]!, dz = z - dst[j * 3 + 2]!
    const d = dx * dx + dy * dy + dz * dz
    if (d < best) {
      second = best
      best = d
      bi = j
    } else if (d < second) {
      second = d
    }
  }
  keepSecond(second)
  return bi
}

/** gpu.js sub-kernel that routes `second` to its own output. */
function keepSecond(value: number): number {
  return value
}

const gpu = new GPU()
const clouds = new Map<number, Float32Array>()
let kernel: { run: IKernelRunShortcut; loopMax: number } | undefined

/** The kernel, rebuilt with a larger loop cap when a bigger cloud arrives (GLSL loops need a constant bound). */
function kernelFor(m: number): IKernelRunShortcut {
  if (kernel === undefined || kernel.loopMax < m) {
    let loopMax = 1024
    while (loopMax < m) loopMax *= 2
    // precision 'single' keeps float32 textures (the default may pack into 8-bit channels); loopMaxIterations is a
    // real gpu.js setting its typings omit.
    const settings = { output: [1, 1], precision: 'single', tactic: 'precision', loopMaxIterations: loopMax, dynamicOutput: true, dynamicArguments: true }
    const run = gpu.createKernelMap({ second: keepSecond }, nearestKernel, settings as IGPUKernelSettings) as unknown as IKernelRunShortcut
    kernel = { run, loopMax }
  }
  return kernel.run
}

function floats(base64: string, what: string): Float32Array {
  const bytes = base64ToBytes(base64)
  if (bytes.byteLength % 4 !== 0) throw new TypeError(`${what}: ${bytes.byteLength} bytes is not a whole number of float32 values`)
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4).slice()
}

function cloud(id: number): Float32Array {
  const found = clouds.get(id)
  if (found === undefined) throw new RangeError(`no cloud ${id} on the GPU page (never uploaded or released)`)
  return found
}

/** Flattens gpu.js's 2-D output (one Float32Array row per map) into one map-major array. */
function flatten(rows: unknown, n: number, maps: number): Float32Array {
  const out = new Float32Array(n * maps)
  if (rows instanceof Float32Array) out.set(rows.subarray(0, n * maps))
  else if (Array.isArray(rows)) rows.forEach((row: Float32Array, k: number) => out.set(row.subarray(0, n), k * n))
  else throw new TypeError(`gpu.js returned ${Object.prototype.toString.call(rows)}, expected Float32Array rows`)
  return out
}

function runNearest(request: GpuNearestRequest): GpuNearestResponse {
  return {
    groups: request.groups.map((group, g) => {
      const src = cloud(group.source), dst = cloud(group.target)
      const maps = floats(group.affines, `groups[${g}].affines`)
      if (maps.length === 0 || maps.length % 12 !== 0) throw new RangeError(`groups[${g}].affines: expected 12 numbers per map, got ${maps.length}`)
      const n = src.length / 3, m = dst.length / 3, count = maps.length / 12
      const run = kernelFor(m)
      run.setOutput([n, count])
      const out = run(src, dst, maps, m) as unknown as { result: unknown; second: unknown }
      const index = flatten(out.result, n, count), second = flatten(out.second, n, count)
      return { index: bytesToBase64(new Uint8Array(index.buffer)), second: bytesToBase64(new Uint8Array(second.buffer)) }
    }),
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value)
  // Spelled out here: a ZodError's message does not survive the trip back through page.evaluate.
  if (!parsed.success) throw new TypeError(`the GPU page got a malformed ${what}; fix the caller:\n${z.prettifyError(parsed.error)}`)
  return parsed.data
}

function readRenderer(): string {
  const gl = new OffscreenCanvas(1, 1).getContext('webgl2')
  if (gl === null) return 'no WebGL2'
  const info = gl.getExtension('WEBGL_debug_renderer_info')
  return String(gl.getParameter(info === null ? gl.RENDERER : info.UNMASKED_RENDERER_WEBGL))
}

const api: GpuNearestPageApi = {
  info: (): GpuInfo => ({ renderer: readRenderer(), mode: String(gpu.mode) }),
  upload: (request: GpuUploadRequest) => {
    const { id, points } = parse(GpuUploadRequestSchema, request, 'upload')
    const values = floats(points, `cloud ${id}`)
    if (values.length === 0 || values.length % 3 !== 0) throw new RangeError(`cloud ${id}: expected xyz triples, got ${values.length} numbers`)
    clouds.set(id, values)
  },
  release: (ids: number[]) => { for (const id of ids) clouds.delete(id) },
  nearest: (request: GpuNearestRequest) => runNearest(parse(GpuNearestRequestSchema, request, 'nearest request')),
}
Reflect.set(window, GPU_NEAREST_GLOBAL, api)
