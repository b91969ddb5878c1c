// Zod schemas of frames (environment.md §2.6): the logical form with `integration` as a number array.
import * as z from 'zod'
import { Vec3Schema } from './manifest-schema.ts'

export const CameraSchema = z.strictObject({
  position: Vec3Schema,
  target: Vec3Schema,
})

/** A logical transform group; membership rules beyond shape are checked in validate-frames.ts. */
export const GroupSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string(),
  members: z.array(z.string().min(1)).min(2).meta({ uniqueItems: true }),
})

/** The frame fields stored in frames.jsonl (everything but `integration`). */
export const FrameFieldsSchema = z.strictObject({
  index: z.int().min(0),
  camera: CameraSchema,
  groups: z.array(GroupSchema),
  groupCounter: z.int().min(0),
})

export const TracePhaseSchema = z.enum(['input', 'physics', 'final', 'rollback'])

/** The extra fields of a trace frame. */
export const TraceFieldsSchema = z.strictObject({
  call_id: z.string().min(1),
  phase: TracePhaseSchema,
  /** Steps taken so far in the call (0 on `input`). */
  step: z.int().min(0),
  /** `data.time − originTime` (s). */
  sim_time: z.number(),
  /** Force acting on a body during a physics step. */
  applied: z.strictObject({ body: z.int().min(1), values: Vec3Schema }).optional(),
})

/** `mj_getState(…, mjSTATE_INTEGRATION)` as plain numbers (the JSON Schema form). */
const IntegrationSchema = z.array(z.number())

export const LogicalFrameSchema = z.strictObject({
  ...FrameFieldsSchema.shape,
  integration: IntegrationSchema,
})

export const LogicalTraceFrameSchema = z.strictObject({
  ...FrameFieldsSchema.shape,
  ...TraceFieldsSchema.shape,
  integration: IntegrationSchema,
})

export type Camera = z.infer<typeof CameraSchema>
export type Group = z.infer<typeof GroupSchema>
export type TracePhase = z.infer<typeof TracePhaseSchema>
export type LogicalFrame = z.infer<typeof LogicalFrameSchema>
export type LogicalTraceFrame = z.infer<typeof LogicalTraceFrameSchema>
