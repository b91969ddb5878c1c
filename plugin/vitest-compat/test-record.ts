// Writes Node's account of a test over what its page reported: the test's metadata, its annotations (JUnit
// properties, and what Vitest's UI and html reporter show: figures, images, the timeline) and, where Node's record does
// not support a pass, a failure. Vitest keeps the page's reports on the runner task that every reporter reads (public
// on 4.1 and 5 as `experimental_getRunnerTask`, but editing it is no documented use), so this is the one place that
// edits it.
import { experimental_getRunnerTask, type TestCase } from 'vitest/node'
import type { AttachedAnnotation } from '../../src/harness/node/index.ts'
import { VitestCompatError } from './select.ts'

export interface TestRecordAmendment {
  /** `task.meta[key]` becomes this value. */
  meta: { key: string; value: unknown }
  /**
   * The test's annotations, all of them: whatever the page annotated is dropped (page code is untrusted, and the UI
   * would show its words and pictures as the test's).
   */
  annotations: ReadonlyArray<TestAnnotation>
  /** When set, the test fails with this error (added to the page's own errors). */
  failure?: { name: string; message: string } | undefined
}

/** An annotation as Vitest 4.1 and 5 keep it (the harness's shape, defined once there); an attachment's `body` is base64. */
export type TestAnnotation = AttachedAnnotation

interface RunnerTask {
  meta: Record<string, unknown>
  annotations?: TestAnnotation[]
  result?: { state?: string; errors?: unknown[] } & Record<string, unknown>
}

/** Applies `amendment` to the test's runner task; idempotent, so it can be applied again after a later page update. */
export function amendTestRecord(testCase: TestCase, amendment: TestRecordAmendment): void {
  const task = runnerTask(testCase)
  task.meta[amendment.meta.key] = amendment.meta.value
  task.annotations = amendment.annotations.map(({ type, message, attachment }) => (attachment === undefined ? { type, message } : { type, message, attachment: { ...attachment } }))
  if (amendment.failure !== undefined) {
    const errors = (task.result?.errors ?? []).filter(error => (error as { name?: unknown } | null)?.name !== amendment.failure!.name)
    const error = { name: amendment.failure.name, message: amendment.failure.message, stack: `${amendment.failure.name}: ${amendment.failure.message}`, stacks: [] }
    task.result = { ...task.result, state: 'fail', errors: [...errors, error] }
  }
}

function runnerTask(testCase: TestCase): RunnerTask {
  const task: unknown = experimental_getRunnerTask(testCase)
  if (task === null || typeof task !== 'object' || typeof Reflect.get(task, 'meta') !== 'object') {
    throw new VitestCompatError('VITEST_DEFENCE_NOT_APPLIED', `Vitest ${testCase.project.vitest.version} has no runner task on its TestCase; the harness cannot write Node's verdict over the page's`)
  }
  return task as RunnerTask
}
