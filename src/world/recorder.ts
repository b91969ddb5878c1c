// Recording of environment.md §2.14: lifecycle start, call rows, paired events, trace frames and committed
// states on the in-memory episode. It does not execute tools or touch MuJoCo.
import type { Call, CallEvent, CallName, Episode, ErrorCode, Frame, Producer, TracePhase } from '../episode/index.ts'
import type { WorldSnapshot } from './live-world.ts'
import type { Cancellation } from './tool-error.ts'

/** The open call a tool writes trace frames into. */
export interface OpenCall {
  readonly call: Call
}

export interface CallOutcome {
  status: 'completed' | 'error'
  /** Stored form of the result (completed calls). */
  result?: Record<string, unknown> | undefined
  error?: string | undefined
  errorCode?: ErrorCode | undefined
  cancellation?: Cancellation | undefined
  /** The exact JSON text returned to the caller. */
  transport: string
  steps: number
  simTime: number
}

export interface BeginCallInput {
  name: CallName
  arguments: Record<string, unknown>
  actor: 'agent' | 'human'
  producer: Producer
  timestamp: string
  simTime: number
}

/** Writes into `episode` in place; the runtime owns the episode and exports copies of it. */
export class Recorder {
  private readonly episode: Episode

  constructor(episode: Episode) {
    this.episode = episode
  }

  get isRecording(): boolean {
    return this.episode.manifest.lifecycle !== 'setup'
  }

  get stateCount(): number {
    return this.episode.states.length
  }

  get callCount(): number {
    return this.episode.calls.length
  }

  /** setup → active: `initial` := the live snapshot (index 0), `originTime` := `time` (§2.14 rule 2). */
  start(snapshot: WorldSnapshot, time: number): void {
    if (this.isRecording) return
    this.episode.initial = frameOf(0, snapshot)
    this.episode.manifest.lifecycle = 'active'
    this.episode.manifest.originTime = time
    this.episode.revision++
  }

  /** While in setup, a human edit overwrites `initial` and is not recorded (§2.14 rule 3). */
  replaceInitial(snapshot: WorldSnapshot): void {
    this.episode.initial = frameOf(0, snapshot)
    this.episode.revision++
  }

  /** `data.time − originTime` (s). */
  simTime(time: number): number {
    return time - this.episode.manifest.originTime
  }

  /** Pushes the call row (provisionally completed) and its `request` event. */
  beginCall(input: BeginCallInput): OpenCall {
    const { episode } = this
    const index = episode.calls.length
    const call: Call = {
      index,
      id: `call-${index}`,
      name: input.name,
      arguments: structuredClone(input.arguments),
      timestamp: input.timestamp,
      actor: input.actor,
      producer: { ...input.producer },
      before_index: episode.states.length,
      state_index: episode.states.length,
      trace_start: episode.trajectory.length,
      trace_end: episode.trajectory.length,
      sim_start: input.simTime,
      sim_end: input.simTime,
      steps: 0,
      status: 'completed',
    }
    episode.calls.push(call)
    this.pushEvent(call.id, 'request', input.timestamp, input.simTime)
    return { call }
  }

  /** Appends a trace frame of `open` (index = its position in the trajectory). */
  trace(open: OpenCall, phase: TracePhase, snapshot: WorldSnapshot, step: number, simTime: number, applied?: { body: number, values: [number, number, number] }): void {
    const { trajectory } = this.episode
    trajectory.push({
      ...frameOf(trajectory.length, snapshot),
      call_id: open.call.id,
      phase,
      step,
      sim_time: simTime,
      ...(applied === undefined ? {} : { applied: { body: applied.body, values: [applied.values[0], applied.values[1], applied.values[2]] } }),
    })
  }

  /** Appends a committed state (index = `states.length + 1`) and returns its index. */
  commitState(snapshot: WorldSnapshot): number {
    const index = this.episode.states.length + 1
    this.episode.states.push(frameOf(index, snapshot))
    return index
  }

  /** Fills the outcome fields of `open` and pushes its `complete` event (§2.14 rule 4). */
  completeCall(open: OpenCall, outcome: CallOutcome, timestamp: string): void {
    const { call } = open
    call.status = outcome.status
    if (outcome.result !== undefined) call.result = outcome.result
    if (outcome.error !== undefined) call.error = outcome.error
    if (outcome.errorCode !== undefined) call.error_code = outcome.errorCode
    if (outcome.cancellation !== undefined) call.cancellation = { ...outcome.cancellation }
    call.transport = outcome.transport
    call.state_index = this.episode.states.length
    call.trace_end = this.episode.trajectory.length
    call.steps = outcome.steps
    call.sim_end = outcome.simTime
    this.pushEvent(call.id, 'complete', timestamp, outcome.simTime)
    this.episode.revision++
  }

  /** Stores a PNG observation under its content name. */
  addObservation(name: string, png: Uint8Array): void {
    this.episode.observations.set(name, png)
  }

  /** `manifest.task` := `task` when `start_episode` is the first recorded call (§4.7). */
  setTask(task: string): void {
    this.episode.manifest.task = task
  }

  private pushEvent(callId: string, kind: CallEvent['kind'], timestamp: string, simTime: number): void {
    const { events } = this.episode
    events.push({ index: events.length, call_id: callId, kind, timestamp, sim_time: simTime })
  }
}

/** A committed frame built from a snapshot (copies everything). */
export function frameOf(index: number, snapshot: WorldSnapshot): Frame {
  return {
    index,
    integration: new Float64Array(snapshot.integration),
    camera: { position: [...snapshot.camera.position], target: [...snapshot.camera.target] },
    groups: structuredClone(snapshot.groups),
    groupCounter: snapshot.groupCounter,
  }
}
