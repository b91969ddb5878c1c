// Vitest's JUnit reporter with each benchmark block as its own <testsuite> and classname, instead of the one suite file
// every block project runs; every other module and every other attribute is left as Vitest writes it.
import { JUnitReporter, type JUnitOptions, type ResolvedConfig, type TestModule } from 'vitest/node'

type ReporterEntry = ResolvedConfig['reporters'][number]

/**
 * Vitest names each <testsuite> and (unless `classnameTemplate` says otherwise) its testcases' classname after the
 * test file's path. All block projects run one suite file, so this reporter names a block module's suite and
 * classname after its project, the block: `<testsuite name="partnet-none">`. Uses only the writer's public
 * methods: `writeElement` for the suite element, `writeTasks` for the testcases, both called once per module in order.
 */
export class BlockJUnitReporter extends JUnitReporter {
  /** Per module still to be written, in order: its block, or undefined for a module that is not a block's. */
  private pending: (string | undefined)[] = []
  private current: string | undefined

  override async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    this.pending = testModules.map(blockOf)
    await super.onTestRunEnd(testModules)
  }

  override async writeElement(name: string, attrs: Record<string, unknown>, children: () => Promise<void>): Promise<void> {
    if (name !== 'testsuite') return super.writeElement(name, attrs, children)
    this.current = this.pending.shift()
    return super.writeElement(name, this.current === undefined ? attrs : { ...attrs, name: this.current }, children)
  }

  override async writeTasks(tasks: Parameters<JUnitReporter['writeTasks']>[0], filename: string): Promise<void> {
    return super.writeTasks(tasks, this.current ?? filename)
  }
}

/**
 * The block a module's project runs (its provided `awbBlock`; the project name is `<block> (chromium)`), or undefined
 * for any other project. Known by the project, not the file path, so merged reports from other checkouts match too.
 */
function blockOf(module: TestModule): string | undefined {
  const provided: { awbBlock?: { name?: unknown } } = module.project.getProvidedContext()
  return typeof provided.awbBlock?.name === 'string' ? provided.awbBlock.name : undefined
}

function isJUnitEntry(entry: ReporterEntry): entry is ['junit', Partial<JUnitOptions>] {
  return Array.isArray(entry) && entry[0] === 'junit'
}

/**
 * Replaces Vitest's `junit` entries (from the config or `--reporter=junit`, with their options) in `reporters` by a
 * BlockJUnitReporter. Call before Vitest builds its reporters (in `configureVitest`).
 */
export function useBlockJUnit(reporters: ResolvedConfig['reporters']): void {
  for (const [index, entry] of reporters.entries()) {
    if (isJUnitEntry(entry)) reporters[index] = new BlockJUnitReporter(entry[1])
  }
}
