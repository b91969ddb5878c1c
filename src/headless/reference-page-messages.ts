// The messages between the Node reference-page renderer and its page (zod schemas); isomorphic, no I/O, no drawing.
import * as z from 'zod'

const FiniteSchema = z.number().finite()
const Vec3Schema = z.tuple([FiniteSchema, FiniteSchema, FiniteSchema])
/** Below this norm a quaternion is treated as zero (the contract's |q| < 1e-8 rule). */
const MIN_QUATERNION_NORM = 1e-8

/** One part on a page: its body, assembled pose and how it is drawn. */
export const ReferencePagePartSchema = z.strictObject({
  /** Body name `part-NNNN` in the world's model. */
  bodyId: z.string().min(1),
  /** Body origin in the world frame (task units). */
  position: Vec3Schema,
  /** Body orientation, wxyz; normalised by MuJoCo, must not be zero. */
  quaternion: z.tuple([FiniteSchema, FiniteSchema, FiniteSchema, FiniteSchema])
    .refine(q => Math.hypot(...q) >= MIN_QUATERNION_NORM, { message: 'a part quaternion must not be zero (|q| < 1e-8)' }),
  /** Drawn on this page; the geoms of an invisible body are hidden. */
  visible: z.boolean(),
  /** Drawn in the highlight colour (the parts a step adds). */
  highlighted: z.boolean(),
})
export type ReferencePagePart = z.infer<typeof ReferencePagePartSchema>

/** One `world/` member: archive path and base64 bytes (untouched). */
export const WorldMemberSchema = z.strictObject({ path: z.string().startsWith('world/'), data: z.string() })
export type WorldMember = z.infer<typeof WorldMemberSchema>

/** Node → page: one reference page to draw. */
export const ReferencePageRequestSchema = z.strictObject({
  /** Where the page belongs, for error messages (e.g. `ikea-manualbook / Chair/x page 2`). */
  label: z.string(),
  /** The episode's `world/` members, sorted by path. */
  world: z.array(WorldMemberSchema).min(1),
  /** Every part the page mentions; bodies of the model not listed stay hidden. */
  parts: z.array(ReferencePagePartSchema).refine(parts => new Set(parts.map(part => part.bodyId)).size === parts.length, { message: 'each body may be listed once' }),
  /** Printed top-left; empty prints nothing. */
  caption: z.string(),
  /** Camera in world coordinates (+Z up), capture intrinsics. */
  camera: z.strictObject({ position: Vec3Schema, target: Vec3Schema }),
})
export type ReferencePageRequest = z.infer<typeof ReferencePageRequestSchema>

/** Page → Node: the PNG (base64). */
export const ReferencePageResponseSchema = z.strictObject({ png: z.string().min(1) })
export type ReferencePageResponse = z.infer<typeof ReferencePageResponseSchema>

/** The name of the reference page's entry object on `window`; Node waits for it, then calls `render`. */
export const REFERENCE_PAGE_GLOBAL = '__awbReferencePages'
