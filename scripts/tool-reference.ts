// `npm run docs:tools`: regenerates docs/tools.md, the tool reference, from the tool catalog and real tool calls on
// one awb-mini sample. Run from the repository root; it changes nothing else.
import { resolve } from 'node:path'
import { writeFileAtomic } from '../src/shared/atomic-write.ts'
import { buildToolReference, TOOL_REFERENCE_PATH } from './tool-reference/build-reference.ts'

const path = resolve(TOOL_REFERENCE_PATH)
await writeFileAtomic(path, await buildToolReference())
console.error(`tool reference: wrote ${path}`)
