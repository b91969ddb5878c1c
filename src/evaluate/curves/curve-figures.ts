// Derived figures of one score curve (best-ever vs final, first full success, steps after the best state); pure.

/** The score fields of one curve step the figures read. */
export interface StepScore {
  call_index: number
  SR: number
  PA: number
  SCD: number | null
}

export interface CurveFigures {
  /** Number of steps (recorded calls) in the curve. */
  steps: number
  final_SR: number | null
  final_PA: number | null
  final_SCD: number | null
  /** The best state ever reached: highest SR, then highest PA, then lowest SCD; the first such step wins ties. */
  best_SR: number | null
  best_PA: number | null
  best_SCD: number | null
  best_call_index: number | null
  /** Calls made after the best state (0 when the final state is the best). */
  steps_after_best: number | null
  /** Call index of the first step with SR 1, or null when none reached it. */
  first_SR1_call_index: number | null
  /** True when the final state is strictly worse than the best one (the agent got closer, then undid it). */
  regressed: boolean
}

/** Figures of `steps` (in call order). An empty curve (no recorded call) has null figures. */
export function curveFigures(steps: readonly StepScore[]): CurveFigures {
  const last = steps.at(-1)
  let best = -1
  for (let i = 0; i < steps.length; i++) if (best < 0 || isBetter(steps[i]!, steps[best]!)) best = i
  const bestStep = best < 0 ? undefined : steps[best]!
  const firstSuccess = steps.find(step => step.SR === 1)
  return {
    steps: steps.length,
    final_SR: last?.SR ?? null,
    final_PA: last?.PA ?? null,
    final_SCD: last?.SCD ?? null,
    best_SR: bestStep?.SR ?? null,
    best_PA: bestStep?.PA ?? null,
    best_SCD: bestStep?.SCD ?? null,
    best_call_index: bestStep?.call_index ?? null,
    steps_after_best: best < 0 ? null : steps.length - 1 - best,
    first_SR1_call_index: firstSuccess?.call_index ?? null,
    regressed: last !== undefined && bestStep !== undefined && isBetter(bestStep, last),
  }
}

/** Strictly better: SR, then PA, then a lower SCD (an unscorable state, SCD null, is worst). */
function isBetter(a: StepScore, b: StepScore): boolean {
  if (a.SR !== b.SR) return a.SR > b.SR
  if (a.PA !== b.PA) return a.PA > b.PA
  if (a.SCD === null) return false
  return b.SCD === null || a.SCD < b.SCD
}
