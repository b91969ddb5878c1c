// Which sample the page may act on, and how often: the Node side's defence against page code (agents run there).
// Every browser command names a block and a sample; nothing the page says is trusted beyond what this gate checks.
import { sampleKey } from '../../package/index.ts'

/** Why a page's request on a sample was refused; the message says what was asked and what is allowed. */
export class SampleAccessError extends Error {
  readonly code: SampleAccessCode
  constructor(code: SampleAccessCode, message: string) {
    super(message)
    this.name = 'SampleAccessError'
    this.code = code
  }
}

export type SampleAccessCode =
  | 'WRONG_PROJECT'
  | 'UNKNOWN_SAMPLE'
  | 'NOT_RUNNING_TEST'
  | 'ALREADY_STARTED'
  | 'ANOTHER_SAMPLE_OPEN'
  | 'NOT_OPEN'
  | 'ALREADY_SAVED'
  | 'ALREADY_FINISHED'
  | 'WRONG_AGENT'
  | 'ALREADY_RUNNING'
  | 'ALREADY_RECORDED'
  | 'RUN_STOPPED'

/** The caller of a browser command as Vitest (not the page) names it: the project whose page sent it. */
export interface CommandCaller {
  project: string
}

/** The agent kind a sample was started with: decides which Node-side services the page may use. */
export type GatedAgentKind = 'api' | 'cli' | 'page'

/** One started sample: its phase and the Node-side work tied to it (aborted when it closes). */
export interface OpenSample {
  readonly block: string
  readonly sampleId: string
  readonly agentKind: GatedAgentKind
  /** The agent's Node-side work (model requests): aborted once the final episode is saved, the sample finishes or its time limit (plus allowance) has passed. */
  readonly signal: AbortSignal
  saved: boolean
  cliStarted: boolean
}

export interface SampleGateOptions {
  /** Sample ids per block name, as the package declares them. */
  blocks: ReadonlyMap<string, ReadonlySet<string>>
  /**
   * Resolves when `sampleId` is the test Vitest reports running in `block`'s project; rejects otherwise. Absent
   * outside Vitest (then project binding and once-only rules are the defence).
   */
  awaitRunningTest?: (block: string, sampleId: string) => Promise<void>
}

interface SampleState extends OpenSample {
  phase: 'open' | 'finished'
  controller: AbortController
  deadline: ReturnType<typeof setTimeout> | undefined
}

/**
 * The life of each sample, enforced on the Node side: started once, by the project that owns its block, while
 * Vitest runs its test; one open sample per project; its final episode saved once; finished (scored) once, after
 * which nothing more is accepted for it. Model requests and the CLI relay are tied to the open sample.
 */
export class SampleGate {
  private readonly options: SampleGateOptions
  private readonly states = new Map<string, SampleState>()
  private readonly openByProject = new Map<string, SampleState>()

  constructor(options: SampleGateOptions) {
    this.options = options
  }

  /** Opens `block / sampleId` for `caller`; `timeLimitMs` (agent limit + grace) bounds Node-side work on it. */
  async open(caller: CommandCaller, block: string, sampleId: string, agentKind: GatedAgentKind, timeLimitMs: number): Promise<OpenSample> {
    this.assertOwnBlock(caller, block)
    const ids = this.options.blocks.get(block)
    if (typeof sampleId !== 'string' || ids?.has(sampleId) !== true) {
      throw new SampleAccessError('UNKNOWN_SAMPLE', `sample ${JSON.stringify(sampleId)} is not in block ${block}`)
    }
    if (this.states.has(sampleKey(block, sampleId))) {
      throw new SampleAccessError('ALREADY_STARTED', `${block} / ${sampleId} was already started in this run; a sample starts once`)
    }
    const other = this.openByProject.get(caller.project)
    if (other !== undefined) {
      throw new SampleAccessError('ANOTHER_SAMPLE_OPEN', `${block} / ${other.sampleId} is still open; finish it before starting ${sampleId}`)
    }
    await this.options.awaitRunningTest?.(block, sampleId)
    // Checked again: the wait above yields, and two starts of one sample may race.
    if (this.states.has(sampleKey(block, sampleId)) || this.openByProject.has(caller.project)) {
      throw new SampleAccessError('ALREADY_STARTED', `${block} / ${sampleId} was started concurrently; a sample starts once`)
    }
    const controller = new AbortController()
    const state: SampleState = {
      block, sampleId, agentKind, signal: controller.signal, saved: false, cliStarted: false, phase: 'open', controller,
      deadline: setTimeout(() => controller.abort(new Error(`the time limit of ${block} / ${sampleId} has passed`)), timeLimitMs),
    }
    state.deadline?.unref?.()
    this.states.set(sampleKey(block, sampleId), state)
    this.openByProject.set(caller.project, state)
    return state
  }

  /** Checks that `block / sampleId` is `caller`'s block and the test Vitest reports running there. */
  async assertRunningTest(caller: CommandCaller, block: string, sampleId: string): Promise<void> {
    this.assertOwnBlock(caller, block)
    if (typeof sampleId !== 'string' || this.options.blocks.get(block)?.has(sampleId) !== true) {
      throw new SampleAccessError('UNKNOWN_SAMPLE', `sample ${JSON.stringify(sampleId)} is not in block ${block}`)
    }
    await this.options.awaitRunningTest?.(block, sampleId)
  }

  /** The open sample `block / sampleId` of `caller`, for an action named in errors. */
  active(caller: CommandCaller, block: string, sampleId: string, action: string): OpenSample {
    this.assertOwnBlock(caller, block)
    const state = this.states.get(sampleKey(block, sampleId))
    if (state === undefined || this.openByProject.get(caller.project) !== state) {
      const why = state?.phase === 'finished' ? 'it has finished' : 'it is not the open sample of this project'
      throw new SampleAccessError(state?.phase === 'finished' ? 'ALREADY_FINISHED' : 'NOT_OPEN', `cannot ${action} for ${block} / ${String(sampleId)}: ${why}`)
    }
    return state
  }

  /** The open sample of `caller`'s project, whatever it is (for requests that name none, such as model requests). */
  openSampleOf(caller: CommandCaller, action: string): OpenSample {
    const state = this.openByProject.get(caller.project)
    if (state === undefined) throw new SampleAccessError('NOT_OPEN', `cannot ${action}: no sample of ${caller.project} is open`)
    return state
  }

  /** Claims the one save of the final episode; the agent's Node-side work ends here (it has stopped). */
  claimSave(caller: CommandCaller, block: string, sampleId: string): OpenSample {
    const state = this.active(caller, block, sampleId, 'save the final episode') as SampleState
    if (state.saved) throw new SampleAccessError('ALREADY_SAVED', `the final episode of ${block} / ${sampleId} was already saved; it is saved once`)
    state.saved = true
    state.controller.abort(new Error(`the final episode of ${block} / ${sampleId} was saved: the agent has stopped`))
    return state
  }

  /** Claims the one CLI agent run of a sample started with a CLI agent. */
  claimCli(caller: CommandCaller, block: string, sampleId: string): OpenSample {
    const state = this.active(caller, block, sampleId, 'run the CLI agent')
    if (state.agentKind !== 'cli') throw new SampleAccessError('WRONG_AGENT', `${block} / ${sampleId} was not started with a CLI agent`)
    if (state.cliStarted) throw new SampleAccessError('ALREADY_RUNNING', `the CLI agent of ${block} / ${sampleId} was already started`)
    state.cliStarted = true
    return state
  }

  /**
   * Closes the sample before it is scored, so that no second finish, save or model request can follow: whatever
   * the page does next, this sample's score is computed once.
   */
  claimFinish(caller: CommandCaller, block: string, sampleId: string): OpenSample {
    const state = this.states.get(sampleKey(block, sampleId))
    if (state?.phase === 'finished') {
      this.assertOwnBlock(caller, block)
      throw new SampleAccessError('ALREADY_FINISHED', `${block} / ${sampleId} has finished; its score is computed once`)
    }
    const open = this.active(caller, block, sampleId, 'finish') as SampleState
    open.phase = 'finished'
    clearTimeout(open.deadline)
    open.controller.abort(new Error(`${block} / ${sampleId} has finished`))
    this.openByProject.delete(caller.project)
    return open
  }

  /**
   * Closes `block / sampleId` if it is still open (its test ended without finishing it: the page crashed or was
   * closed, or the start failed half-way); returns whether it was open. The project may then start its next sample.
   */
  abandon(block: string, sampleId: string, reason: string): boolean {
    const state = this.states.get(sampleKey(block, sampleId))
    if (state === undefined || state.phase === 'finished') return false
    state.phase = 'finished'
    clearTimeout(state.deadline)
    state.controller.abort(new Error(reason))
    for (const [project, open] of this.openByProject) if (open === state) this.openByProject.delete(project)
    return true
  }

  /** The samples open now, in every project. */
  openSamples(): OpenSample[] {
    return [...this.openByProject.values()]
  }

  /** Aborts the work of every open sample (the run is ending). */
  abortAll(reason: string): void {
    for (const state of this.openByProject.values()) {
      clearTimeout(state.deadline)
      state.controller.abort(new Error(reason))
    }
  }

  private assertOwnBlock(caller: CommandCaller, block: string): void {
    if (block !== caller.project) {
      throw new SampleAccessError('WRONG_PROJECT', `project ${caller.project} cannot act on block ${JSON.stringify(block)}; a block's samples belong to the project of the same name`)
    }
  }
}

