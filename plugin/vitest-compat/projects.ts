// Which benchmark block a Vitest project runs: one definition for the browser commands, the running-tests reporter,
// JUnit and the startup check. Block projects carry their block in `test.provide.awbBlock` (plugin/index.ts).
import type { TestProject } from 'vitest/node'

/**
 * The block a block project runs (its provided `awbBlock`; the project name is `<block> (chromium)`), or undefined for
 * any other project. Known by the project, not a file path, so merged reports from other checkouts match too.
 */
export function blockOfProject(project: Pick<TestProject, 'getProvidedContext'> | undefined): string | undefined {
  const provided = project?.getProvidedContext() as { awbBlock?: { name?: unknown } } | undefined
  return typeof provided?.awbBlock?.name === 'string' ? provided.awbBlock.name : undefined
}

/**
 * The same, read from the resolved config: in `configureVitest`, Vitest 4.1's `getProvidedContext()` throws until the
 * root project is initialised.
 */
export function blockOfConfiguredProject(project: TestProject): string | undefined {
  const provide = (project.config as { provide?: { awbBlock?: { name?: unknown } } }).provide
  return typeof provide?.awbBlock?.name === 'string' ? provide.awbBlock.name : undefined
}
