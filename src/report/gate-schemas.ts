// The gate shapes, once: the schemas that options, `AWB_GATES` and `awb report --gates` parse, the types inferred from
// them, and the result every gate check returns. No checking here (gates.ts, paired/baseline-gate.ts).
import * as z from 'zod'

/** Minimum aggregate SR and PA, maximum SCD (lower SCD is better), each optional. */
export const GateSchema = z.strictObject({
  SR: z.number().min(0).max(1).optional(),
  PA: z.number().min(0).max(1).optional(),
  /** A maximum: lower SCD is better. */
  SCD: z.number().min(0).optional(),
})
export type Gate = z.infer<typeof GateSchema>

/**
 * Allowed change against the baseline, e.g. `{"SR": -0.05}`: SR and PA margins are drops (≤ 0), the SCD margin is a
 * rise (≥ 0, lower SCD is better). Fails only when the run is significantly worse (checkBaselineGate).
 */
export const BaselineGateSchema = z.strictObject({
  SR: z.number().max(0).optional(),
  PA: z.number().max(0).optional(),
  SCD: z.number().min(0).optional(),
})
export type BaselineGate = z.infer<typeof BaselineGateSchema>

export const GatesSchema = z.strictObject({
  /** Per block name, or `*` for every block of the package. */
  blocks: z.record(z.string(), GateSchema).optional(),
  /** Per source name, or `*` for every source. */
  sources: z.record(z.string(), GateSchema).optional(),
  overall: GateSchema.optional(),
  /** Against the AWB_BASELINE run (checked by `checkBaselineGate` in paired/, not by checkGates). */
  vs_baseline: BaselineGateSchema.optional(),
})
export type Gates = z.infer<typeof GatesSchema>

/** One gate's outcome, from checkGates or checkBaselineGate; an output, never parsed. */
export interface GateResult {
  /** e.g. `block ikea-manualbook SR ≥ 0.5`. */
  gate: string
  /** The measured value, or null when the run did not measure it (partial run, block not run). */
  measured: number | null
  status: 'passed' | 'failed' | 'not-measured'
}
