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
  private readonly blockSuite: string
  /** Per module still to be written, in order: its block, or undefined for a module that is not a block's. */
  private pending: (string | undefined)[] = []
  private current: string | undefined

  /** `blockSuite`: absolute path of the suite file the block projects run. */
  constructor(options: JUnitOptions & { blockSuite: string }) {
    const { blockSuite, ...junit } = options
    super(junit)
    this.blockSuite = blockSuite
  }

  override async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    this.pending = testModules.map(module => (module.moduleId === this.blockSuite ? blockOf(module) : undefined))
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

/** The block a block project runs (its provided `awbBlock`; the project name is `<block> (chromium)`). */
function blockOf(module: TestModule): string {
  const provided: { awbBlock?: { name?: unknown } } = module.project.getProvidedContext()
  return typeof provided.awbBlock?.name === 'string' ? provided.awbBlock.name : module.project.name
}

function isJUnitEntry(entry: ReporterEntry): entry is ['junit', Partial<JUnitOptions>] {
  return Array.isArray(entry) && entry[0] === 'junit'
}

/**
 * Replaces Vitest's `junit` entries (from the config or `--reporter=junit`, with their options) in `reporters` by a
 * BlockJUnitReporter. Call before Vitest builds its reporters (in `configureVitest`).
 */
export function useBlockJUnit(reporters: ResolvedConfig['reporters'], blockSuite: string): void {
  for (const [index, entry] of reporters.entries()) {
    if (isJUnitEntry(entry)) reporters[index] = new BlockJUnitReporter({ ...entry[1], blockSuite })
  }
}
