// Vitest's JUnit reporter with each benchmark block as its own <testsuite> and classname, instead of the one suite file
// every block project runs, and with Node's reason on a sample the stopped run did not start; every other module and
// every other attribute is left as Vitest writes it. Vitest 5 names suites through the public `suiteNameTemplate` and
// `classnameTemplate`; Vitest 4.1 has no suite template, so there the subclass also renames the suite element. Both
// majors write a bare `<skipped/>` for every skipped test, ignoring its note, so on both the subclass writes the
// skipped element of a stopped sample itself, through the writer's public methods (`writeElement`, `writeTasks`).
import { JUnitReporter, type JUnitOptions, type ResolvedConfig, type TestModule, type Vitest } from 'vitest/node'
import type { VitestAdapter } from './adapter.ts'
import { blockOfProject } from './projects.ts'

type ReporterEntry = ResolvedConfig['reporters'][number]
type WrittenTask = Parameters<JUnitReporter['writeTasks']>[0][number]

/**
 * Why the run stopped starting samples, from Node (BenchmarkSession `stopReason`), or undefined when it did not. Read
 * once, as the report is written. The page's own skip note is never used: the page is untrusted.
 */
export type StopReason = () => Promise<string | undefined> | string | undefined

export interface BlockJUnitOptions {
  /** Vitest 4.1: rename each block module's <testsuite> after its block (5 does it with `suiteNameTemplate`). */
  renameSuites: boolean
  stopReason: StopReason
}

/** The `message` of a stopped sample's `<skipped>` element. */
export function stoppedSkipMessage(reason: string): string {
  return `not started: the run stopped (${reason})`
}

/** Names a block module's suite after its block (4.1), in the order modules are written, and says why stopped samples were skipped. */
export class BlockJUnitReporter extends JUnitReporter {
  private readonly blockOptions: BlockJUnitOptions
  /** Per module still to be written, in order: its block, or undefined for a module that is not a block's. */
  private pending: (string | undefined)[] = []
  private current: string | undefined
  private stopReason: string | undefined
  /** Per testcase of the module being written, in order: the skip message to write, or undefined. */
  private skipMessages: (string | undefined)[] = []

  constructor(options: Partial<JUnitOptions>, blockOptions: BlockJUnitOptions = { renameSuites: true, stopReason: () => undefined }) {
    super(options)
    this.blockOptions = blockOptions
  }

  override async onTestRunEnd(...args: Parameters<JUnitReporter['onTestRunEnd']>): Promise<void> {
    const testModules: ReadonlyArray<TestModule> = args[0]
    this.pending = testModules.map(module => blockOfProject(module.project))
    this.stopReason = await this.blockOptions.stopReason()
    await super.onTestRunEnd(...args)
  }

  override async writeElement(name: string, attrs: Record<string, unknown>, children: () => Promise<void>): Promise<void> {
    if (name === 'testsuite') {
      this.current = this.pending.shift()
      const renamed = this.blockOptions.renameSuites && this.current !== undefined ? { ...attrs, name: this.current } : attrs
      return super.writeElement(name, renamed, children)
    }
    if (name === 'testcase') {
      const message = this.skipMessages.shift()
      // JUnit's <skipped> comes first in a testcase; its element is written here, with the reason as `message`.
      if (message !== undefined) {
        return super.writeElement(name, attrs, async () => {
          await super.writeElement('skipped', { message }, async () => {})
          await children.call(this)
        })
      }
    }
    return super.writeElement(name, attrs, children)
  }

  override async writeTasks(...args: Parameters<JUnitReporter['writeTasks']>): Promise<void> {
    if (this.blockOptions.renameSuites && this.current !== undefined) args[1] = this.current
    const messages = args[0].map(task => this.skipMessageOf(task))
    this.skipMessages = messages
    // Vitest writes `<skipped/>` for a task whose mode is `skip`; a copy that says `run` keeps it from writing a second,
    // bare one. The copy lives only in this call: the task every other reporter reads is untouched, and the suite's
    // `skipped` count was taken before.
    args[0] = args[0].map((task, index) => (messages[index] === undefined ? task : { ...task, mode: 'run' } as WrittenTask))
    return super.writeTasks(...args)
  }

  /** A block test the page skipped as it ran (Vitest's `pending`, from `ctx.skip`) while Node had stopped the run. */
  private skipMessageOf(task: WrittenTask): string | undefined {
    if (this.current === undefined || this.stopReason === undefined) return undefined
    // `pending` is set by the runner on a run-time skip but is not in TaskResult's public type.
    const pending = (task.result as { pending?: unknown } | undefined)?.pending
    if (task.type !== 'test' || task.mode !== 'skip' || pending !== true) return undefined
    return stoppedSkipMessage(this.stopReason)
  }
}

function isJUnitEntry(entry: ReporterEntry): entry is ['junit', Partial<JUnitOptions>] {
  return Array.isArray(entry) && entry[0] === 'junit'
}

/**
 * Makes Vitest's `junit` entries (from the config or `--reporter=junit`, with their options) in `vitest.config.reporters`
 * name block suites after their block and give a stopped sample's `<skipped>` Node's reason. Call before Vitest builds
 * its reporters (in `configureVitest`).
 */
export function useBlockJUnit(vitest: Pick<Vitest, 'config' | 'projects'>, adapter: Pick<VitestAdapter, 'junitSuiteNames'>, stopReason: StopReason = () => undefined): void {
  const reporters = vitest.config.reporters
  for (const [index, entry] of reporters.entries()) {
    if (!isJUnitEntry(entry)) continue
    if (adapter.junitSuiteNames === 'writeElement') {
      reporters[index] = new BlockJUnitReporter(entry[1], { renameSuites: true, stopReason })
      continue
    }
    // Vitest 5's template variables: `displayName` is the module's project name, `filename` its path. Typed here, not
    // through JUnitOptions, so this file also compiles against Vitest 4.1's types (which lack suiteNameTemplate).
    const name = (variables: { displayName: string; filename: string }) =>
      blockOfProject(vitest.projects.find(project => project.name === variables.displayName)) ?? variables.filename
    const options: Record<string, unknown> = { ...entry[1] }
    options.suiteNameTemplate ??= name
    options.classnameTemplate ??= name
    reporters[index] = new BlockJUnitReporter(options, { renameSuites: false, stopReason })
  }
}
