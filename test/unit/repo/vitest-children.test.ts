// The suite starts child Vitests of this checkout through test/helpers/vitest-cli.ts only: there they get the arguments
// every child run starts with (the native config loader where Node strips types). A file that names the CLI itself
// would start a child run without them, paying seconds of CPU per run that the suite's time limit has no room for.
import { readdir, readFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const HELPER = 'test/helpers/vitest-cli.ts'
/** The checkout's Vitest CLI named in code: a path segment list or a path string. */
const NAMES_THE_CLI = /'vitest',\s*'vitest\.mjs'|vitest\/vitest\.mjs/

async function typeScriptFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter(entry => entry.isFile() && entry.name.endsWith('.ts')).map(entry => join(entry.parentPath, entry.name))
}

describe('child Vitests of the suite', () => {
  it(`are started through ${HELPER} only`, async () => {
    const offenders: string[] = []
    for (const file of await typeScriptFiles(join(ROOT, 'test'))) {
      const path = relative(ROOT, file)
      if (path === HELPER || path === 'test/unit/repo/vitest-children.test.ts') continue
      const lines = (await readFile(file, 'utf8')).split('\n')
      lines.forEach((line, index) => {
        if (NAMES_THE_CLI.test(line)) offenders.push(`${path}:${index + 1}: ${line.trim()}`)
      })
    }
    expect(offenders, 'start the child with vitestCli() from test/helpers/vitest-cli.ts').toEqual([])
  })
})
