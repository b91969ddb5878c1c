// The §7 simulation loop after a physical edit: fixed / settle strategies, force steps, resting test,
// instability check, cancellation and event-loop yields. It steps MuJoCo; it does not record or commit.
import type { RuntimeSettings } from '../episode/index.ts'
import type { LiveWorld } from './live-world.ts'
import { MESSAGES, ToolError } from './tool-error.ts'

/** Any |qvel| above this is unstable (§7). */
const MAX_ABS_QVEL = 1e8
/** Steps between yields to the event loop (§7), so a long advance does not freeze the page. */
const YIELD_EVERY_STEPS = 100

export type PhysicsOutcome = 'disabled' | 'advanced' | 'settled' | 'timeout'

export interface PhysicsRun {
  physics: PhysicsOutcome
  steps: number
}

/** A force held on one body for the first `fixedSteps` steps (apply_force). */
export interface AppliedForce {
  body: number
  values: [number, number, number]
}

export interface SimulateOptions {
  physics: RuntimeSettings['physics']
  /** advance_simulation's duration (s): exactly ceil(duration / dt) steps whatever the strategy. */
  duration?: number | undefined
  force?: AppliedForce | undefined
  /** Stop with `Operation cancelled.` when this many steps have run (the verifier's cancel hook, §3). */
  cancelAtStep?: number | undefined
  signal?: AbortSignal | undefined
  /** Called after every `mj_step` with the steps so far and the force acting in that step (trace frame `physics`). */
  onStep(step: number, applied: AppliedForce | undefined): void
}

/**
 * Runs the loop of §7 on the live data. Returns `{physics: "disabled", steps: 0}` without stepping when physics
 * is off. Throws `ToolError` on cancellation (with `cancellation: {phase: "physics", step}`) or instability.
 */
export async function simulate(world: LiveWorld, options: SimulateOptions): Promise<PhysicsRun> {
  const { physics } = options
  if (!physics.enabled) return { physics: 'disabled', steps: 0 }
  const { mujoco, model, data } = world
  const dt = model.opt.timestep
  const isExplicit = options.duration !== undefined
  const fixedSteps = Math.ceil((options.duration ?? physics.duration) / dt)
  const isSettle = !isExplicit && physics.strategy === 'settle'
  const maxSteps = isSettle ? Math.ceil(physics.maxDuration / dt) + (options.force === undefined ? 0 : fixedSteps) : fixedSteps
  const bodies = [...world.allObjects()]
  let quiet = 0
  let step = 0
  try {
    for (let i = 0; i < maxSteps; i++) {
      if (step === options.cancelAtStep || options.signal?.aborted === true) {
        throw new ToolError(MESSAGES.cancelled, { cancellation: { phase: 'physics', step } })
      }
      const xfrc = data.xfrc_applied as Float64Array
      xfrc.fill(0)
      const applied = options.force !== undefined && i < fixedSteps ? options.force : undefined
      if (applied !== undefined) {
        xfrc[6 * applied.body] = applied.values[0]
        xfrc[6 * applied.body + 1] = applied.values[1]
        xfrc[6 * applied.body + 2] = applied.values[2]
      }
      mujoco.mj_step(model, data)
      step++
      options.onStep(step, applied)
      const qpos = data.qpos as Float64Array
      const qvel = data.qvel as Float64Array
      if (!isStable(qpos, qvel)) throw new ToolError(MESSAGES.unstable)
      const isForceDone = options.force === undefined || step >= fixedSteps
      quiet = isForceDone && isResting(qvel, bodies, physics) ? quiet + dt : 0
      if (isSettle && quiet >= physics.quietDuration) return { physics: 'settled', steps: step }
      if (step % YIELD_EVERY_STEPS === 0) await yieldToEventLoop()
    }
  } finally {
    ;(data.xfrc_applied as Float64Array).fill(0)
  }
  return { physics: isSettle ? 'timeout' : 'advanced', steps: step }
}

/** ceil(duration / timestep) for the world's model. */
export function stepCount(world: LiveWorld, duration: number): number {
  return Math.ceil(duration / world.model.opt.timestep)
}

function isStable(qpos: Float64Array, qvel: Float64Array): boolean {
  for (let i = 0; i < qpos.length; i++) if (!Number.isFinite(qpos[i] ?? 0)) return false
  for (let i = 0; i < qvel.length; i++) {
    const v = qvel[i] ?? 0
    if (!Number.isFinite(v) || Math.abs(v) > MAX_ABS_QVEL) return false
  }
  return true
}

// Resting: every free body's linear and angular speed at or below its threshold (§7).
function isResting(qvel: Float64Array, bodies: readonly { dofAddress: number }[], physics: RuntimeSettings['physics']): boolean {
  for (const { dofAddress: a } of bodies) {
    const linear = Math.hypot(qvel[a] ?? 0, qvel[a + 1] ?? 0, qvel[a + 2] ?? 0)
    const angular = Math.hypot(qvel[a + 3] ?? 0, qvel[a + 4] ?? 0, qvel[a + 5] ?? 0)
    if (linear > physics.linearThreshold || angular > physics.angularThreshold) return false
  }
  return true
}

function yieldToEventLoop(): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, 0))
}
