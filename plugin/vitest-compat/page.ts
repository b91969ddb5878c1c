// Page side of the compatibility layer (runs in the block suite, in Chromium): Vitest behaviour the suite relies on
// that its documentation does not promise.
import { recordArtifact, type TestContext } from 'vitest'

/**
 * Delivers this test's start to the Node side now. Vitest (4.1 and 5) throttles task updates from the page and can
 * hold a test's start until it ends; recording an artifact flushes them, and the Node side binds every command to
 * the test it knows is running.
 */
export async function deliverTestStart(task: TestContext['task'], sampleId: string): Promise<void> {
  await recordArtifact(task, { type: 'awb:sample-start', sampleId })
}
