// Vitest's JUnit reporter with each benchmark block as its own <testsuite> and classname, instead of the one suite file
// every block project runs; every other module and every other attribute is left as Vitest writes it. Vitest 5 names
// suites through the public `suiteNameTemplate` and `classnameTemplate`; Vitest 4.1 has no suite template, so there a
// subclass renames the suite element through the writer's public methods (`writeElement`, `writeTasks`).
import { JUnitReporter, type JUnitOptions, type ResolvedConfig, type TestModule, type Vitest } from 'vitest/node'
import type { VitestAdapter } from './adapter.ts'
import { blockOfProject } from './projects.ts'

type ReporterEntry = ResolvedConfig['reporters'][number]

/** Vitest 4.1: names a block module's suite and classname after its block, in the order modules are written. */
export class BlockJUnitReporter extends JUnitReporter {
  /** Per module still to be written, in order: its block, or undefined for a module that is not a block's. */
  private pending: (string | undefined)[] = []
  private current: string | undefined

  override async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    this.pending = testModules.map(module => blockOfProject(module.project))
    await super.onTestRunEnd(testModules)
  }

  override async writeElement(name: string, attrs: Record<string, unknown>, children: () => Promise<void>): Promise<void> {
    if (name !== 'testsuite') return super.writeElement(name, attrs, children)
    this.current = this.pending.shift()
    return super.writeElement(name, this.current === undefined ? attrs : { ...attrs, name: this.current }, children)
  }

  override async writeTasks(...args: Parameters<JUnitReporter['writeTasks']>): Promise<void> {
    if (this.current !== undefined) args[1] = this.current
    return super.writeTasks(...args)
  }
}

function isJUnitEntry(entry: ReporterEntry): entry is ['junit', Partial<JUnitOptions>] {
  return Array.isArray(entry) && entry[0] === 'junit'
}

/**
 * Makes Vitest's `junit` entries (from the config or `--reporter=junit`, with their options) in `vitest.config.reporters`
 * name block suites after their block. Call before Vitest builds its reporters (in `configureVitest`).
 */
export function useBlockJUnit(vitest: Vitest, adapter: Pick<VitestAdapter, 'junitSuiteNames'>): void {
  const reporters = vitest.config.reporters
  for (const [index, entry] of reporters.entries()) {
    if (!isJUnitEntry(entry)) continue
    if (adapter.junitSuiteNames === 'writeElement') {
      reporters[index] = new BlockJUnitReporter(entry[1])
      continue
    }
    // Vitest 5's template variables: `displayName` is the module's project name, `filename` its path. Typed here, not
    // through JUnitOptions, so this file also compiles against Vitest 4.1's types (which lack suiteNameTemplate).
    const name = (variables: { displayName: string; filename: string }) =>
      blockOfProject(vitest.projects.find(project => project.name === variables.displayName)) ?? variables.filename
    const options: Record<string, unknown> = { ...entry[1] }
    options.suiteNameTemplate ??= name
    options.classnameTemplate ??= name
    reporters[index] = ['junit', options]
  }
}
