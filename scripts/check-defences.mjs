#!/usr/bin/env node
// Proves each integrity defence of SECURITY.md: for every entry of test/defences/defences.json, a copy of this
// checkout with that one defence removed (a textual edit of its source) must fail at least one of the entry's hostile
// tests. One at a time, so each failure is that defence's doing. Not part of `npm test` (it runs the hostile tests
// once per defence, tens of minutes in all); the anchors themselves are checked by test/unit/repo/defences.test.ts.
//
//   node scripts/check-defences.mjs                 every defence
//   node scripts/check-defences.mjs --only ID,ID    some
//   node scripts/check-defences.mjs --list          the defences and their tests
//   --timeout-minutes N                             stop one run after N minutes (default 15; counts as failed)
// First the chosen defences' tests run once on an unchanged copy and must pass: a test that fails anyway proves nothing.
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const ROOT = resolve(import.meta.dirname, '..')
const MANIFEST = join(ROOT, 'test', 'defences', 'defences.json')

const { values } = parseArgs({ options: { only: { type: 'string' }, list: { type: 'boolean' }, keep: { type: 'boolean' }, 'timeout-minutes': { type: 'string', default: '15' } } })
/** A run past this is stopped and counts as failed (a removed defence that hangs the tests has not gone unnoticed). */
const RUN_TIMEOUT_MS = Number(values['timeout-minutes']) * 60_000
const { defences } = JSON.parse(readFileSync(MANIFEST, 'utf8'))
const wanted = values.only === undefined ? undefined : new Set(values.only.split(','))
if (wanted !== undefined) {
  const unknown = [...wanted].filter(id => !defences.some(defence => defence.id === id))
  if (unknown.length > 0) fail(`unknown defence ${unknown.join(', ')}; --list shows them`)
}
const chosen = defences.filter(defence => wanted === undefined || wanted.has(defence.id))

if (values.list) {
  for (const defence of chosen) console.log(`${defence.id}: ${defence.what}\n  removed in ${defence.file}; proven by ${defence.tests.join(', ')}`)
  process.exit(0)
}

const baseline = check({ id: 'baseline', what: 'nothing removed', tests: [...new Set(chosen.flatMap(defence => defence.tests))] })
if (baseline.proven || baseline.status !== 0) fail(`the hostile tests fail with every defence in place (${baseline.detail}); fix them first`)
const results = []
for (const defence of chosen) results.push(check(defence))
console.log('\ndefence                      tests failed without it')
for (const { id, proven, detail } of results) console.log(`${proven ? 'proven ' : 'NOT PROVEN'}  ${id.padEnd(26)} ${detail}`)
const unproven = results.filter(result => !result.proven)
if (unproven.length > 0) fail(`${unproven.length} defence(s) removed without any hostile test failing: ${unproven.map(result => result.id).join(', ')}`)
console.log(`\nall ${results.length} defence(s) proven: removing any one fails a hostile test`)

/** Copies the checkout, removes `defence` there, runs its tests; proven when they fail. */
function check(defence) {
  const copy = mkdtempSync(join(tmpdir(), `awb-defence-${defence.id}-`))
  try {
    for (const path of checkoutFiles()) {
      mkdirSync(dirname(join(copy, path)), { recursive: true })
      cpSync(join(ROOT, path), join(copy, path))
    }
    // The copy shares this checkout's installed dependencies (read only); its compiled outputs are copied, like the
    // sources, so that nothing of the copy resolves into this checkout.
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'))
    if (existsSync(join(ROOT, 'dist'))) cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true })
    // A defence may need more than one edit to be gone (`also`: a second check of the same rule).
    for (const edit of defence.file === undefined ? [] : [defence, ...(defence.also ?? [])]) {
      const file = join(copy, edit.file)
      const source = readFileSync(file, 'utf8')
      const at = source.indexOf(edit.find)
      if (at < 0 || source.indexOf(edit.find, at + 1) >= 0) fail(`${defence.id}: the text to remove must occur exactly once in ${edit.file}: ${edit.find}`)
      writeFileSync(file, source.replace(edit.find, edit.replace))
    }
    console.log(`\n== ${defence.id}: ${defence.what}${defence.file === undefined ? '' : ` — removed in ${defence.file}`}; running ${defence.tests.join(' ')}`)
    const run = spawnSync(process.execPath, [join(copy, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'test/vitest.config.ts', ...defence.tests], {
      cwd: copy, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      timeout: RUN_TIMEOUT_MS, killSignal: 'SIGKILL',
    })
    const output = `${run.stdout}\n${run.stderr}`
    const failed = [...output.matchAll(/^\s*(?:FAIL|×)\s+(.+)$/gm)].map(match => match[1].trim())
    if (run.signal === 'SIGKILL') failed.push(`the tests did not end within ${values['timeout-minutes']} min`)
    const proven = run.status !== 0 && failed.length > 0
    if (!proven || defence.file === undefined) console.log(output.slice(-4000))
    return { id: defence.id, proven, status: run.status, detail: proven ? `${failed.length} failed, e.g. ${failed[0].slice(0, 100)}` : `exit ${run.status}, no test failed` }
  } finally {
    if (!values.keep) rmSync(copy, { recursive: true, force: true })
  }
}

/** Tracked and untracked, not ignored files of the checkout. */
function checkoutFiles() {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  return listed.split('\0').filter(path => path !== '' && existsSync(join(ROOT, path)))
}

function fail(message) {
  console.error(`check-defences: ${message}`)
  process.exit(1)
}
