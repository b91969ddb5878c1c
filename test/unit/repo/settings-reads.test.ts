// Every user AWB_* variable is read in one place, src/settings (issue #27): a scan of the sources for reads of a
// variable anywhere else. Variables we set for agent programs (object keys, assignments) are not reads.
import { readdir, readFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AGENT_PROGRAM_VARIABLES, INTERNAL_VARIABLES, USER_VARIABLES } from '../../../src/settings/index.ts'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const SCANNED = ['src', 'plugin', 'reporters', 'suites', 'bin']
/** The one folder that reads the user's variables. */
const SETTINGS_FOLDER = 'src/settings/'

/** Ways to read a variable: a member (`env.AWB_X`, `process.env?.AWB_X`, `env['AWB_X']`), unless it is assigned. */
const MEMBER_READ = /(?:\?\.|\.)\s*(AWB_[A-Z0-9_]+)\b(?!\s*=[^=])|\[\s*(['"`])(AWB_[A-Z0-9_]+)\2\s*\](?!\s*=[^=])/g
/** Destructuring from an environment: `const { AWB_X } = process.env`, `({ AWB_X: x } = env)`, a typed parameter. */
const DESTRUCTURING = /\{([^{}]*)\}\s*(?:=\s*[\w$.?]*\benv\b|:\s*NodeJS\.ProcessEnv)/g
/** Presence checks: `'AWB_X' in env`. */
const IN_CHECK = /(['"`])(AWB_[A-Z0-9_]+)\1\s+in\s+/g

/**
 * Reads allowed outside src/settings, each with its reason; a new entry needs a reason as good. The table still
 * declares the variable (its kind, example and meaning).
 */
const READ_EXCEPTIONS: { file: string; name: string; reason: string }[] = [
  {
    file: 'src/shared/chromium.ts',
    name: 'AWB_CHROMIUM',
    reason: 'findChromium serves src/headless (the CLI\'s pages, the GPU scorer, report captures), which sits below src/settings '
      + 'in the layers (boundaries.test.ts) and gets no run settings; the value is a path, nothing to parse',
  },
]

/** Names anybody may read: the ones we only set, or our own plumbing. Anything else named AWB_* is a user's. */
const NOT_USER = new Set(Object.keys({ ...AGENT_PROGRAM_VARIABLES, ...INTERNAL_VARIABLES }).filter(name => !(name in USER_VARIABLES)))

/** `line: NAME` for each read of a user (or unknown) AWB_* variable in `text`. */
function userReads(text: string): string[] {
  const found: { index: number; name: string }[] = []
  for (const match of text.matchAll(MEMBER_READ)) found.push({ index: match.index, name: (match[1] ?? match[3])! })
  for (const match of text.matchAll(DESTRUCTURING)) {
    for (const name of match[1]!.match(/\bAWB_[A-Z0-9_]+\b/g) ?? []) found.push({ index: match.index, name })
  }
  for (const match of text.matchAll(IN_CHECK)) found.push({ index: match.index, name: match[2]! })
  return found
    .filter(read => !NOT_USER.has(read.name))
    .map(read => `${text.slice(0, read.index).split('\n').length}: ${read.name}`)
}

async function sourceFiles(): Promise<string[]> {
  const files: string[] = []
  for (const folder of SCANNED) {
    const entries = await readdir(join(ROOT, folder), { withFileTypes: true, recursive: true })
    for (const entry of entries) {
      if (entry.isFile() && /\.(ts|mjs)$/.test(entry.name)) files.push(relative(ROOT, join(entry.parentPath, entry.name)))
    }
  }
  return files.sort()
}

describe('user settings are read only in src/settings', () => {
  it('no file outside src/settings reads a user AWB_* variable', async () => {
    const files = await sourceFiles()
    expect(files).toEqual(expect.arrayContaining(['plugin/options.ts', 'reporters/aggregate-reporter.ts', 'src/cli/commands/validate.ts', 'src/shared/chromium.ts', 'bin/awb.mjs']))
    const offenders: string[] = []
    const excused = new Set<string>()
    for (const file of files) {
      if (file.startsWith(SETTINGS_FOLDER)) continue
      for (const read of userReads(await readFile(join(ROOT, file), 'utf8'))) {
        const exception = READ_EXCEPTIONS.find(one => one.file === file && read.endsWith(`: ${one.name}`))
        if (exception === undefined) offenders.push(`${file}:${read}`)
        else excused.add(`${exception.file} ${exception.name}`)
      }
    }
    expect(offenders).toEqual([])
    // An exception no longer needed is removed, so the list stays the list of real reads.
    expect([...excused].sort()).toEqual(READ_EXCEPTIONS.map(one => `${one.file} ${one.name}`).sort())
  })

  it('lists each exception with its reason', () => {
    for (const exception of READ_EXCEPTIONS) expect(exception.reason.length).toBeGreaterThan(40)
  })

  it('finds each form of read, and not the variables we set (the scan is not blind)', () => {
    const sample = [
      'const a = process.env.AWB_CURVES',
      "const b = process.env['AWB_REPORT']",
      'const c = env.AWB_BASELINE ?? ""',
      'const d = env["AWB_SCORING_BACKEND"]',
      'const { AWB_CHROMIUM, PATH } = process.env',
      'const { AWB_BENCHMARK: benchmark } = options.env',
      "if ('AWB_SANDBOX' in env) run()",
      'const e = options.env?.AWB_NEW_SETTING',
      // Not reads: the variables handed to an agent program, and an assignment.
      'spawn(cmd, { env: { ...env, AWB_MCP_URL: url, AWB_MODEL: model } })',
      'child.AWB_WORKSPACE = workspace',
      'const url = env.AWB_MCP_URL',
    ].join('\n')
    expect(userReads(sample)).toEqual(['1: AWB_CURVES', '2: AWB_REPORT', '3: AWB_BASELINE', '4: AWB_SCORING_BACKEND', '8: AWB_NEW_SETTING', '5: AWB_CHROMIUM', '6: AWB_BENCHMARK', '7: AWB_SANDBOX'])
  })
})
