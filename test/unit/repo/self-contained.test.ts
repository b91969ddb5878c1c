// Users clone the project anywhere: no test, benchmark, script or source may read outside the repository (the
// conformance vectors live in test/fixtures/conformance). Checked statically on every path a file builds from its
// own location, and on any mention of the development machine's shared folder.
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const FOLDERS = ['src', 'plugin', 'suites', 'reporters', 'test', 'bench', 'scripts', 'examples', 'bin', '.ci']
const CODE = /\.(ts|mts|mjs|js|cjs|sh|py)$|^run$/

async function codeFiles(): Promise<string[]> {
  const files: string[] = []
  for (const folder of FOLDERS) {
    const entries = await readdir(join(ROOT, folder), { withFileTypes: true, recursive: true }).catch(() => [])
    for (const entry of entries) {
      const path = join(entry.parentPath, entry.name)
      if (entry.isFile() && CODE.test(entry.name) && !path.includes(`${join('test', 'fixtures', 'conformance')}`)) files.push(path)
    }
  }
  return files
}

/** Literal paths a file builds from its own location: new URL('…', import.meta.url), resolve/join(import.meta.dirname, '…', …). */
function anchoredPaths(file: string, text: string): string[] {
  const out: string[] = []
  for (const match of text.matchAll(/new URL\(\s*'([^']+)'\s*,\s*import\.meta\.url\s*\)/g)) {
    out.push(fileURLToPath(new URL(match[1]!, `file://${file}`)))
  }
  for (const match of text.matchAll(/(?:resolve|join)\(\s*import\.meta\.dirname((?:\s*,\s*'[^']*')+)\s*\)/g)) {
    const segments = [...match[1]!.matchAll(/'([^']*)'/g)].map(segment => segment[1]!)
    out.push(resolve(dirname(file), ...segments))
  }
  return out
}

describe('the repository is self-contained', () => {
  it('never names the shared folder of the development machines', async () => {
    const offenders: string[] = []
    for (const file of await codeFiles()) {
      const text = await readFile(file, 'utf8')
      if (file === import.meta.filename) continue
      if (/shared\/(conformance|spec|reference|hooks|ARCHITECTURE|STYLE)\b/.test(text)) offenders.push(relative(ROOT, file))
    }
    expect(offenders).toEqual([])
  })

  it('builds every path from a file\'s own location inside the repository', async () => {
    const outside: string[] = []
    let checked = 0
    for (const file of await codeFiles()) {
      for (const path of anchoredPaths(file, await readFile(file, 'utf8'))) {
        checked++
        if (relative(ROOT, path).startsWith('..')) outside.push(`${relative(ROOT, file)} → ${path}`)
      }
    }
    expect(checked).toBeGreaterThan(20)
    expect(outside).toEqual([])
  })
})
