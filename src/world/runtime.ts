// WorldRuntime: opens a decoded episode in MuJoCo and is the single entry point for tool calls (validation
// order §4.3, envelope §4.4, recording §2.14, commits, registration generations §5.1) and exports (§2.15).
// Isomorphic (Node and page); rendering is delegated to an injected SceneRenderer.
import { latestFrame, RuntimeSchema } from '../episode/index.ts'
import type { CallName, Episode, Manifest, Producer, RuntimeSettings, ToolName } from '../episode/index.ts'
import { compileEpisodeModel } from './check-episode-model.ts'
import { executeCommand, type CommandContext, type CommitRequest, type CommitResult } from './command-handlers.ts'
import { WorldError } from './errors.ts'
import { LiveWorld, type WorldSnapshot } from './live-world.ts'
import type { Mujoco } from './mujoco-runtime.ts'
import { simulate } from './physics-loop.ts'
import { Recorder, type OpenCall } from './recorder.ts'
import type { CameraState, RenderView, SceneRenderer } from './renderer.ts'
import {
  CURRENT_TOOL_NAMES, isCurrentToolName, isHumanCommandName, toolDefinition, type CommandInput, type CommandName, type ToolDefinition,
} from './tool-catalog.ts'
import { errorCodeOf, errorEnvelope, EXPIRED_REGISTRATION_MESSAGE, failureMessage, MESSAGES, ToolError } from './tool-error.ts'
import { checkedCommandInput } from './validate-tool-input.ts'

/** The call producer of this runtime unless the host passes its own (§2.8; `renderer` is added on captures). */
export const RUNTIME_PRODUCER: Producer = { backend: 'wasm', engine: '3.12.0', implementation: 'awb-world-runtime', language: 'typescript' }

/** Capabilities an episode may require (§3 item 6). */
const SUPPORTED_CAPABILITIES: ReadonlySet<string> = new Set(['state'])

export interface OpenWorldOptions {
  /** The loaded MuJoCo 3.12.0 module (`loadMujoco()`). */
  mujoco: Mujoco
  /** A decoded, validated episode (setup or active); the runtime keeps its own deep copy. */
  episode: Episode
  /** Renders capture_scene; without one capture_scene answers `Unsupported capability: capture_scene`. */
  renderer?: SceneRenderer | undefined
  /** Clock for call/event timestamps (default: `new Date()`). */
  clock?: (() => Date) | undefined
  /** Producer recorded on every call (default `RUNTIME_PRODUCER`). */
  producer?: Producer | undefined
  /** Label of the episode in open errors. */
  source?: string | undefined
}

export interface CallToolOptions {
  /** `agent` (WebMCP tools; default) or `human` (`edit_poses`, `set_camera`). */
  actor?: 'agent' | 'human'
  /** Aborting cancels the call (`Operation cancelled.`) before it starts or at the next physics step. */
  signal?: AbortSignal
  /** Cancel once this many physics steps have run (the verifier's hook; §10.1 #9). */
  cancelAtStep?: number
  /** The registration generation the caller registered under; a stale one answers "expired" and records nothing. */
  generation?: number
}

export interface ExportAsInitialOptions {
  /** Id of the new setup episode (default: a random UUID). */
  id?: string
  /** Committed state to export (0 = initial; default: the latest). */
  stateIndex?: number
}

export interface ConfigureOptions {
  physics?: Partial<RuntimeSettings['physics']>
  enabledTools?: ToolName[]
}

/** An open episode. Calls are serialised; `callTool` never throws. Call `dispose()` when done. */
export class WorldRuntime {
  private readonly episode: Episode
  private readonly world: LiveWorld
  private readonly recorder: Recorder
  private readonly renderer: SceneRenderer | undefined
  private readonly clock: () => Date
  private readonly producer: Producer
  private isBusy = false
  private isDisposed = false
  private registrationGeneration = 1

  private constructor(episode: Episode, world: LiveWorld, options: OpenWorldOptions) {
    this.episode = episode
    this.world = world
    this.recorder = new Recorder(episode)
    this.renderer = options.renderer
    this.clock = options.clock ?? (() => new Date())
    this.producer = { ...(options.producer ?? RUNTIME_PRODUCER) }
  }

  /**
   * Compiles the episode's world, runs the on-open checks (capabilities, state size, catalogue, free
   * bodies, supported features), applies `runtime.physics` and restores the latest frame (§2.14 rule 1).
   * Throws `WorldError` when the episode cannot be opened.
   */
  static open(options: OpenWorldOptions): WorldRuntime {
    const source = options.source ?? 'episode'
    const episode = structuredClone(options.episode)
    const unsupported = episode.manifest.requiredCapabilities.filter(capability => !SUPPORTED_CAPABILITIES.has(capability))
    if (unsupported.length > 0) {
      throw new WorldError('WORLD_UNSUPPORTED', `the episode requires capabilities ${unsupported.join(', ')}; this runtime provides only "state"`, { file: source })
    }
    const model = compileEpisodeModel(options.mujoco, episode, source)
    try {
      const frame = latestFrame(episode)
      const world = new LiveWorld(options.mujoco, model, episode.manifest.stateSpec, episode.manifest.objects, frame)
      world.applyPhysics(episode.manifest.runtime.physics, episode.manifest.objects)
      world.restore(frame)
      return new WorldRuntime(episode, world, options)
    } catch (error) {
      model.delete()
      throw error
    }
  }

  /** Current registration generation; it changes when the enabled tools change or the runtime is disposed (§5.1). */
  get generation(): number {
    return this.registrationGeneration
  }

  get lifecycle(): Manifest['lifecycle'] {
    return this.episode.manifest.lifecycle
  }

  /** The agent camera of the live state (a copy). */
  get camera(): CameraState {
    return { position: [...this.world.camera.position], target: [...this.world.camera.target] }
  }

  /** Model + live data (mj_forward done) + agent camera, for renderers. Valid until the next call. */
  renderView(): RenderView {
    return { model: this.world.model, data: this.world.data, camera: this.camera }
  }

  /** The live integration state (a copy). */
  readState(): Float64Array {
    return this.world.readIntegration()
  }

  /** Registration objects of `enabledTools` ∩ the 14 current tools, in catalogue order (`end_episode` never). */
  enabledToolDefinitions(): ToolDefinition[] {
    const enabled = new Set<string>(this.episode.manifest.runtime.enabledTools)
    return CURRENT_TOOL_NAMES.filter(name => enabled.has(name)).map(toolDefinition)
  }

  /**
   * Runs one call and resolves to the §4.4 JSON string (result, or `{"error", "code"}`); never rejects.
   * Agent calls start recording (§2.14 rule 2) and are recorded even when they fail; unknown names and
   * expired registrations are answered without recording.
   */
  async callTool(name: string, input: unknown, options: CallToolOptions = {}): Promise<string> {
    const actor = options.actor ?? 'agent'
    if (this.isDisposed || (options.generation !== undefined && options.generation !== this.registrationGeneration)) {
      return errorEnvelope(EXPIRED_REGISTRATION_MESSAGE)
    }
    if (this.episode.manifest.lifecycle === 'ended') return errorEnvelope(MESSAGES.ended)
    const callName = recordableName(name, actor)
    if (callName === undefined) {
      const expected = actor === 'human' ? 'edit_poses or set_camera' : 'one of the registered tools'
      return errorEnvelope(`Unknown ${actor === 'human' ? 'command' : 'tool'}: ${name} (expected ${expected})`)
    }
    if (actor === 'human' && !this.recorder.isRecording) return this.runSetupEdit(callName, input)
    if (actor === 'agent') this.recorder.start(this.world.snapshot(), this.world.time)
    const open = this.recorder.beginCall({
      name: callName, arguments: copyArguments(input), actor, producer: this.producer, timestamp: this.timestamp(), simTime: this.simTime(),
    })
    let transport: string
    let steps = 0
    try {
      const admitted = this.admit(callName, input, actor, options)
      this.isBusy = true
      try {
        const result = await executeCommand(this.commandContext(open, options, n => { steps = n }), admitted.command, admitted.input)
        transport = JSON.stringify(result.wire ?? result.stored)
        this.recorder.completeCall(open, { status: 'completed', result: JSON.parse(JSON.stringify(result.stored)), transport, steps, simTime: this.simTime() }, this.timestamp())
        return transport
      } finally {
        this.isBusy = false
      }
    } catch (error) {
      const message = failureMessage(error)
      transport = errorEnvelope(message)
      this.recorder.completeCall(open, {
        status: 'error', error: message, errorCode: errorCodeOf(message), cancellation: error instanceof ToolError ? error.cancellation : undefined,
        transport, steps, simTime: this.simTime(),
      }, this.timestamp())
      return transport
    }
  }

  /**
   * Changes the scene configuration while the episode is still in setup; throws `WorldError`
   * (`WORLD_LOCKED`, "locked") once recording has started (§2.14 rule 2).
   */
  configure(changes: ConfigureOptions): void {
    if (this.recorder.isRecording) {
      throw new WorldError('WORLD_LOCKED', 'the scene configuration is locked once recording has started; export the current state as a new initial episode to change it')
    }
    const { runtime } = this.episode.manifest
    const next = RuntimeSchema.parse({
      physics: { ...runtime.physics, ...changes.physics },
      enabledTools: changes.enabledTools ?? runtime.enabledTools,
    })
    if (changes.enabledTools !== undefined) this.registrationGeneration++
    this.episode.manifest.runtime = next
    this.world.applyPhysics(next.physics, this.episode.manifest.objects)
    this.world.restore(this.world.snapshot())
  }

  /** The full episode (§2.15): a deep copy ready for `encodeEpisode`; id, producer and world bytes unchanged. */
  exportEpisode(): Episode {
    return structuredClone(this.episode)
  }

  /**
   * "Export current as initial" (§2.15): a setup episode with a new id whose `initial` is the chosen state
   * (default: latest), `originTime` its time, no history, no `task` / `end`.
   */
  exportCurrentAsInitial(options: ExportAsInitialOptions = {}): Episode {
    const episode = structuredClone(this.episode)
    const frame = options.stateIndex === undefined ? latestFrame(episode) : options.stateIndex === 0 ? episode.initial : episode.states[options.stateIndex - 1]
    if (frame === undefined) throw new WorldError('WORLD_STATE', `there is no committed state ${options.stateIndex}; choose 0..${episode.states.length}`)
    const { task: _task, end: _end, ...manifest } = episode.manifest
    return {
      ...episode,
      manifest: { ...manifest, id: options.id ?? globalThis.crypto.randomUUID(), lifecycle: 'setup', originTime: frame.integration[0] ?? 0 },
      initial: { ...frame, index: 0 },
      states: [],
      calls: [],
      events: [],
      trajectory: [],
      revision: 0,
      observations: new Map(),
    }
  }

  /** Frees MuJoCo memory; later calls answer "registration has expired". */
  dispose(): void {
    if (this.isDisposed) return
    this.isDisposed = true
    this.registrationGeneration++
    this.world.dispose()
    this.world.model.delete()
  }

  // §4.3 steps 1–5, in order; throws ToolError. `end_episode` is retired: legal in archives, never executed.
  private admit(name: CallName, input: unknown, actor: 'agent' | 'human', options: CallToolOptions): { command: CommandName; input: CommandInput<CommandName> } {
    if (name === 'end_episode') throw new ToolError('Invalid tool: end_episode is retired and cannot be executed; the harness ends episodes by exporting them.')
    const command: CommandName = name
    const checked = checkedCommandInput(command, input)
    if (actor === 'agent' && !this.episode.manifest.runtime.enabledTools.some(tool => tool === name)) throw new ToolError(MESSAGES.disabled(name))
    if (this.isBusy) throw new ToolError(MESSAGES.busy)
    if (options.signal?.aborted === true) throw new ToolError(MESSAGES.cancelled, { cancellation: { phase: 'input', step: 0 } })
    return { command, input: checked }
  }

  private commandContext(open: OpenCall | undefined, options: CallToolOptions, onSteps: (steps: number) => void): CommandContext {
    return {
      world: this.world,
      manifest: this.episode.manifest,
      renderer: this.renderer,
      stateCount: this.recorder.stateCount,
      isFirstCall: open?.call.index === 0,
      commit: request => this.commit(open, request, options, onSteps),
      setTask: task => this.recorder.setTask(task),
      addObservation: (name, png) => this.recorder.addObservation(name, png),
      markRenderer: (renderer) => { if (open !== undefined) open.call.producer.renderer = renderer },
    }
  }

  /**
   * One commit (§2.14 rule 5): snapshot → apply → `input` frame → mj_forward → physics (one `physics` frame
   * per step) → restore-normalize → new state → `final` frame. On a throw: restore exactly, `rollback`
   * frame, re-throw. Without an open call (a setup-time human edit) the result replaces `initial` instead.
   */
  private async commit(open: OpenCall | undefined, request: CommitRequest, options: CallToolOptions, onSteps: (steps: number) => void): Promise<CommitResult> {
    const { world, recorder } = this
    const before = world.snapshot()
    let steps = 0
    try {
      request.apply()
      assertPositionsInRange(world)
      if (open !== undefined) recorder.trace(open, 'input', world.snapshot(), 0, this.simTime())
      world.mujoco.mj_forward(world.model, world.data)
      const run = !request.isPhysical
        ? { physics: 'disabled' as const, steps: 0 }
        : await simulate(world, {
            physics: this.episode.manifest.runtime.physics,
            duration: request.duration,
            force: request.force,
            cancelAtStep: options.cancelAtStep,
            signal: options.signal,
            onStep: (step, applied) => {
              steps = step
              onSteps(step)
              if (open !== undefined) recorder.trace(open, 'physics', world.snapshot(), step, this.simTime(), applied)
            },
          })
      const after: WorldSnapshot = world.snapshot()
      world.restore(after)
      const elapsed = world.time - before.integration[0]!
      if (open === undefined) {
        recorder.replaceInitial(after)
        return { index: 0, run, elapsed }
      }
      const index = recorder.commitState(after)
      recorder.trace(open, 'final', after, run.steps, this.simTime())
      return { index, run, elapsed }
    } catch (error) {
      world.restore(before)
      if (open !== undefined) recorder.trace(open, 'rollback', before, steps, this.simTime())
      throw error
    }
  }

  // A human edit while still in setup: validated and applied like a recorded one, but it overwrites `initial`.
  private async runSetupEdit(name: CallName, input: unknown): Promise<string> {
    try {
      const admitted = this.admit(name, input, 'human', {})
      this.isBusy = true
      try {
        const result = await executeCommand(this.commandContext(undefined, {}, () => {}), admitted.command, admitted.input)
        return JSON.stringify(result.stored)
      } finally {
        this.isBusy = false
      }
    } catch (error) {
      return errorEnvelope(failureMessage(error))
    }
  }

  private timestamp(): string {
    return this.clock().toISOString()
  }

  private simTime(): number {
    return this.recorder.simTime(this.world.time)
  }
}

// Agents may call the 14 current tools and the retired end_episode (rejected but recorded); humans their two commands.
function recordableName(name: string, actor: 'agent' | 'human'): CallName | undefined {
  if (actor === 'human') return isHumanCommandName(name) ? name : undefined
  return isCurrentToolName(name) || name === 'end_episode' ? name : undefined
}

// "Deep copy of the input as received" (§2.8), in its JSON form: the row is stored as JSON anyway.
function copyArguments(input: unknown): Record<string, unknown> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return {}
  try {
    const copy: unknown = JSON.parse(JSON.stringify(input))
    return copy !== null && typeof copy === 'object' && !Array.isArray(copy) ? Object.fromEntries(Object.entries(copy)) : {}
  } catch {
    // Cyclic or BigInt input cannot be stored as JSON; schema validation rejects such input anyway.
    return {}
  }
}

/**
 * Farthest a part may be moved from the origin along any axis. Finite inputs can still put a part at 1e308,
 * where every squared distance overflows and the world can no longer be scored; an edit that would do so is a
 * tool error (rolled back) instead. Real scenes span metres, so the bound never touches honest work.
 */
export const MAX_POSITION = 1e9

function assertPositionsInRange(world: LiveWorld): void {
  const qpos = world.data.qpos as Float64Array
  for (const object of world.allObjects()) {
    const a = object.qposAddress
    if (a < 0) continue
    for (let k = 0; k < 3; k++) {
      const value = qpos[a + k] ?? 0
      if (!(Math.abs(value) <= MAX_POSITION)) throw new ToolError(MESSAGES.outOfRange(object.id, MAX_POSITION))
    }
  }
}
