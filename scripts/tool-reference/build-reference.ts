// The tool reference's text: runs the examples and renders docs/tools.md in memory (the generator writes it, the
// test compares it); writes nothing.
import { renderReference } from './render-reference.ts'
import { runExamples } from './run-examples.ts'

/** Where the reference is committed, from the repository root. */
export const TOOL_REFERENCE_PATH = 'docs/tools.md'

/** The complete text of docs/tools.md, from real calls; relative paths are taken from the repository root. */
export async function buildToolReference(): Promise<string> {
  return renderReference(await runExamples())
}
