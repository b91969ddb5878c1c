// The messages between the Node GPU scoring device (gpu-nearest-device.ts) and its page (zod schemas);
// isomorphic, no I/O. Only point clouds and transforms cross: the page never sees evaluation.json, poses or ids.
import * as z from 'zod'

/** The `window` property the GPU nearest-neighbour page sets once gpu.js is loaded. */
export const GPU_NEAREST_GLOBAL = '__awbGpuNearest'

/** Node → page: a flat xyz float32 cloud, little-endian bytes in base64. */
export const GpuUploadRequestSchema = z.strictObject({
  /** Cloud id chosen by the Node side. */
  id: z.number().int().nonnegative(),
  /** Float32 little-endian xyz triples, base64. */
  points: z.string(),
})
export type GpuUploadRequest = z.infer<typeof GpuUploadRequestSchema>

/** Node → page: one batch of groups (see NearestGroup in src/scoring/gpu/device.ts). */
export const GpuNearestRequestSchema = z.strictObject({
  groups: z.array(z.strictObject({
    source: z.number().int().nonnegative(),
    target: z.number().int().nonnegative(),
    /** Float32 affine maps, 12 per map (row-major A, then b), base64. */
    affines: z.string(),
  })),
})
export type GpuNearestRequest = z.infer<typeof GpuNearestRequestSchema>

/** Page → Node: per group, float32 nearest indices and second distances, map-major, base64. */
export const GpuNearestResponseSchema = z.strictObject({
  groups: z.array(z.strictObject({ index: z.string(), second: z.string() })),
})
export type GpuNearestResponse = z.infer<typeof GpuNearestResponseSchema>

/** Page → Node: what runs the kernels. */
export const GpuInfoSchema = z.strictObject({
  /** The unmasked WebGL renderer string, or `no WebGL2`. */
  renderer: z.string(),
  /** gpu.js's backend: `webgl2`, `webgl`, `cpu`, … (anything but a GL mode means no GPU at all). */
  mode: z.string(),
})
export type GpuInfo = z.infer<typeof GpuInfoSchema>

/** What the page exposes under GPU_NEAREST_GLOBAL. */
export interface GpuNearestPageApi {
  info(): GpuInfo
  upload(request: GpuUploadRequest): void
  release(ids: number[]): void
  nearest(request: GpuNearestRequest): GpuNearestResponse
}
