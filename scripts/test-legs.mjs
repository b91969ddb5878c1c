#!/usr/bin/env node
// README's test command (`npm test`, after scripts/setup.sh): every leg of test/legs/legs.json, each on its own Node
// and its own Vitest, then one line per leg (and one per failed test). The default leg type-checks and runs the whole
// suite on the root lockfile (Vitest 5) with the Node in .node-version; every other leg runs its `tests` in a copy of
// the checkout (.legs/<name>/) installed with `npm ci` from the leg's committed lockfile. The legs run at once: much
// of a leg's time is spent waiting on child runs and browsers, so a second leg with its own `maxWorkers` (legs.json)
// fills the cores the default leg leaves idle. The default leg's output streams; another leg's is kept in
// .vitest-reports/leg-<name>.log and printed when it ends. Exits non-zero when any leg fails.
//
//   node scripts/test-legs.mjs                      all legs, at once
//   node scripts/test-legs.mjs --sequential         all legs, one after another, every output streamed
//   node scripts/test-legs.mjs --leg vitest-4.1     one leg (`default` for the root one)
//   node scripts/test-legs.mjs --prepare            provide every Node and install every leg, run nothing (set-up)
//   node scripts/test-legs.mjs --lock vitest-4.1    rewrite that leg's package.json and package-lock.json
//   node scripts/test-legs.mjs --record-durations   rewrite test/file-seconds.json from the default leg's last report
//   node scripts/test-legs.mjs --leg default -- test/unit/scoring    extra arguments go to `vitest run`
//   node scripts/test-legs.mjs --step-limit 60      stop a leg's step (type-check, suite) after 60 minutes, not 40
import { execFileSync, spawnSync } from 'node:child_process'
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { legManifest } from './leg-manifest.mjs'
import { runTimedStep } from './timed-step.mjs'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const CONFIG = JSON.parse(readFileSync(join(ROOT, 'test', 'legs', 'legs.json'), 'utf8'))
const DEFAULT_NODE = readFileSync(join(ROOT, '.node-version'), 'utf8').trim()

const argv = process.argv.slice(2)
const separator = argv.indexOf('--')
const flags = separator === -1 ? argv : argv.slice(0, separator)
const vitestArgs = separator === -1 ? [] : argv.slice(separator + 1)
const flag = name => {
  const at = flags.indexOf(name)
  return at === -1 ? undefined : flags[at + 1]
}

/** The bin folder of Node `version` (scripts/provide-node.sh installs it from the npm registry when needed). */
function nodeBin(version) {
  return execFileSync('bash', [join(ROOT, 'scripts', 'provide-node.sh'), version], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim()
}

function withNode(bin, extra = {}) {
  return { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, ...extra }
}

/** Runs `command` and returns whether it exited 0 (its output goes straight to ours). */
function step(command, args, options) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options })
  if (result.error !== undefined) throw result.error
  return result.status === 0
}


/** What a copy without git leaves out: installs, builds, run outputs and the legs themselves. */
const NOT_SOURCES = new Set(['.git', 'node_modules', '.legs', '.toolchain', 'dist', 'runs', 'test-results', '.vitest-reports', '.gpu-bundle', '.awb-hostile', '.awb-compat'])

/**
 * Files of the checkout as git sees them (tracked, plus untracked ones it does not ignore), relative to ROOT; in a
 * copy without git (a downloaded archive), every file outside NOT_SOURCES.
 */
function checkoutFiles() {
  let listed
  try {
    listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] })
  } catch {
    return readdirSync(ROOT, { withFileTypes: true })
      .filter(top => !NOT_SOURCES.has(top.name))
      .flatMap(top => (top.isDirectory() ? readdirSync(join(ROOT, top.name), { recursive: true, withFileTypes: true }) : [top]))
      .filter(entry => entry.isFile())
      .map(entry => join(entry.parentPath, entry.name).slice(ROOT.length + 1))
  }
  return listed.split('\0').filter(path => path !== '' && existsSync(join(ROOT, path)))
}

/**
 * Lays the checkout into .legs/<name>/ (keeping its node_modules), with the leg's package.json and lockfile in place
 * of the root ones, and installs them with `npm ci` when they changed. Returns the folder.
 */
function prepareLeg(name, bin) {
  const leg = CONFIG.legs[name]
  const dir = join(ROOT, '.legs', name)
  mkdirSync(dir, { recursive: true })
  for (const entry of readdirSync(dir)) if (entry !== 'node_modules') rmSync(join(dir, entry), { recursive: true, force: true })
  for (const path of checkoutFiles()) {
    if (path.startsWith('test/legs/') && path !== 'test/legs/legs.json') continue
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    cpSync(join(ROOT, path), join(dir, path))
  }
  const own = join(ROOT, 'test', 'legs', name)
  cpSync(join(own, 'package.json'), join(dir, 'package.json'))
  cpSync(join(own, 'package-lock.json'), join(dir, 'package-lock.json'))
  const expected = `${JSON.stringify(legManifest(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')), leg.devDependencies), null, 2)}\n`
  if (readFileSync(join(own, 'package.json'), 'utf8') !== expected) {
    throw new Error(`test/legs/${name}/package.json no longer matches the root package.json with the leg's devDependencies: run \`node scripts/test-legs.mjs --lock ${name}\` and commit both files`)
  }
  // The lockfile the leg's node_modules was installed from, kept beside it: `npm ci` again only when it changed.
  const installedFrom = join(dir, 'node_modules', '.awb-installed-lock.json')
  if (!existsSync(installedFrom) || readFileSync(installedFrom, 'utf8') !== readFileSync(join(dir, 'package-lock.json'), 'utf8')) {
    console.log(`test-legs: installing leg ${name} (npm ci, Node ${leg.node})`)
    if (!step('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, env: withNode(bin) })) throw new Error(`npm ci failed in .legs/${name}`)
    cpSync(join(dir, 'package-lock.json'), installedFrom)
  }
  return dir
}

/** Rewrites test/legs/<name>/package.json from the root one and resolves its lockfile afresh on the leg's Node. */
function lockLeg(name) {
  const leg = CONFIG.legs[name]
  const bin = nodeBin(leg.node)
  const own = join(ROOT, 'test', 'legs', name)
  const scratch = join(ROOT, '.legs', `${name}.lock`)
  rmSync(scratch, { recursive: true, force: true })
  mkdirSync(scratch, { recursive: true })
  const manifest = `${JSON.stringify(legManifest(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')), leg.devDependencies), null, 2)}\n`
  writeFileSync(join(scratch, 'package.json'), manifest)
  if (!step('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: scratch, env: withNode(bin) })) throw new Error('npm install --package-lock-only failed')
  mkdirSync(own, { recursive: true })
  writeFileSync(join(own, 'package.json'), manifest)
  renameSync(join(scratch, 'package-lock.json'), join(own, 'package-lock.json'))
  rmSync(scratch, { recursive: true, force: true })
  console.log(`test-legs: wrote test/legs/${name}/package.json and package-lock.json`)
}

/**
 * Where a leg's JSON report goes. The leg's own output scrolls far above the last lines a CI log keeps, so the
 * summary at the end re-reads this file to name each failed test and its first error line.
 */
const legReport = name => join(ROOT, '.vitest-reports', `leg-${name}.json`)

/** Reporter flags for a leg: Vitest's default one on the terminal, plus the JSON report the summary reads. */
function reporterArgs(name) {
  rmSync(legReport(name), { force: true })
  return ['--reporter=default', '--reporter=json', `--outputFile.json=${legReport(name)}`]
}

/**
 * How long one step of a leg may run. README's test command takes about 10 minutes on two cores; a step still running
 * after this is stuck (a test whose browser page froze never times out: Vitest's test timeouts run inside the page),
 * and stopping it here prints the legs' summary long before a CI job's own limit would end the job without one.
 */
const STEP_TIME_LIMIT_MS = Number(flag('--step-limit') ?? 40) * 60_000
if (!(STEP_TIME_LIMIT_MS > 0)) throw new Error(`--step-limit ${flag('--step-limit')}: expected a number of minutes above 0`)

/** Names of the steps stopped at STEP_TIME_LIMIT_MS, for the summary. */
const stoppedSteps = []
/** Legs whose type-check failed, for the summary (a failed type-check has no line in a leg's test report). */
const failedTypeChecks = new Set()

/**
 * Runs `command` and resolves whether it exited 0. Its output goes to ours, or, given `log` (a file descriptor), to
 * that file. Past STEP_TIME_LIMIT_MS it is stopped with everything it started (scripts/timed-step.mjs) and counts as failed.
 */
async function stepAsync(command, args, options, log) {
  const { passed, stopped } = await runTimedStep(command, args, { spawnOptions: options, log, stop: AbortSignal.timeout(STEP_TIME_LIMIT_MS) })
  if (stopped) stoppedSteps.push(`${command.split('/').pop()} ${args.slice(0, 2).map(arg => arg.split('/').pop()).join(' ')}`)
  return passed
}

/**
 * The type-check and the suite, at once (the type-check is one core for a minute; the suite leaves cores idle while
 * its child runs wait): the leg passes when both do.
 */
async function runDefaultLeg(bin, env, log) {
  const node = join(bin, 'node')
  const [typed, tested] = await Promise.all([
    stepAsync(node, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: ROOT, env }, log),
    stepAsync(node, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'test/vitest.config.ts', ...reporterArgs('default'), ...vitestArgs], { cwd: ROOT, env }, log),
  ])
  if (!typed) {
    console.log('test-legs: the type-check (tsc -p tsconfig.json) failed; its errors are above')
    failedTypeChecks.add('default')
  }
  return typed && tested
}

async function runLeg(name, bin, env, log, alongside) {
  const dir = prepareLeg(name, bin)
  const leg = CONFIG.legs[name]
  const tests = vitestArgs.length > 0 ? vitestArgs : leg.tests
  // Beside the default leg, a leg takes fewer workers (legs.json `maxWorkersAlongside`): both share the machine.
  const workers = alongside && leg.maxWorkersAlongside !== undefined ? [`--maxWorkers=${leg.maxWorkersAlongside}`] : []
  return await stepAsync(join(bin, 'node'), [join(dir, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'test/vitest.config.ts', ...reporterArgs(name), ...workers, ...tests], { cwd: dir, env }, log)
}

const legLog = name => join(ROOT, '.vitest-reports', `leg-${name}.log`)

/** One line per failed test (file, name, first error line) and per failed file without a failed test, from the leg's JSON report. */
function failureLines(name) {
  if (!existsSync(legReport(name))) return [`    (no report at ${legReport(name)}: the leg stopped before Vitest wrote it; see its output above)`]
  const report = JSON.parse(readFileSync(legReport(name), 'utf8'))
  const lines = []
  for (const file of report.testResults ?? []) {
    const where = file.name.startsWith(ROOT) ? file.name.slice(ROOT.length + 1).replace(/^\.legs\/[^/]+\//, '') : file.name
    const failed = (file.assertionResults ?? []).filter(test => test.status === 'failed')
    for (const test of failed) {
      const first = String(test.failureMessages?.[0] ?? '').split('\n').find(line => line.trim() !== '') ?? ''
      lines.push(`    ${where} > ${test.fullName ?? test.title}: ${first.slice(0, 300)}`)
    }
    if (failed.length === 0 && file.status === 'failed') lines.push(`    ${where}: ${String(file.message ?? 'failed').split('\n')[0].slice(0, 300)}`)
  }
  return lines
}

/** test/file-seconds.json from the default leg's last JSON report: the order test/slowest-first.ts starts files in. */
function recordDurations() {
  if (!existsSync(legReport('default'))) throw new Error(`no report at ${legReport('default')}: run the default leg first (npm test)`)
  const report = JSON.parse(readFileSync(legReport('default'), 'utf8'))
  const seconds = {}
  for (const file of report.testResults ?? []) {
    const took = (file.endTime - file.startTime) / 1000
    if (file.name.startsWith(`${ROOT}/`) && took >= 1) seconds[file.name.slice(ROOT.length + 1)] = Math.round(took * 10) / 10
  }
  const target = join(ROOT, 'test', 'file-seconds.json')
  const previous = JSON.parse(readFileSync(target, 'utf8'))
  const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  writeFileSync(`${target}.tmp`, `${JSON.stringify({ $comment: previous.$comment, seconds: sorted }, null, 2)}\n`)
  renameSync(`${target}.tmp`, target)
  console.log(`test-legs: wrote ${Object.keys(sorted).length} files' seconds to test/file-seconds.json`)
}

async function main() {
  if (flags.includes('--record-durations')) {
    recordDurations()
    return 0
  }
  const lock = flag('--lock')
  if (lock !== undefined) {
    if (CONFIG.legs[lock] === undefined) throw new Error(`no leg ${lock} in test/legs/legs.json`)
    lockLeg(lock)
    return 0
  }
  const only = flag('--leg')
  const names = only === undefined ? ['default', ...Object.keys(CONFIG.legs)] : [only]
  for (const name of names) if (name !== 'default' && CONFIG.legs[name] === undefined) throw new Error(`no leg ${name} in test/legs/legs.json (legs: default, ${Object.keys(CONFIG.legs).join(', ')})`)
  if (flags.includes('--prepare')) {
    nodeBin(DEFAULT_NODE)
    for (const { version } of Object.values(CONFIG.nodes)) nodeBin(version)
    for (const name of Object.keys(CONFIG.legs)) prepareLeg(name, nodeBin(CONFIG.legs[name].node))
    return 0
  }
  const sequential = flags.includes('--sequential') || names.length === 1
  const legs = names.map((name) => {
    const version = name === 'default' ? DEFAULT_NODE : CONFIG.legs[name].node
    const vitest = name === 'default' ? JSON.parse(readFileSync(join(ROOT, 'node_modules', 'vitest', 'package.json'), 'utf8')).version : CONFIG.legs[name].devDependencies.vitest
    return { name, version, vitest, heading: `\n== test leg ${name}: Vitest ${vitest} on Node ${version} ==\n` }
  })
  const run = async (leg, streamed) => {
    const bin = nodeBin(leg.version)
    let log
    if (streamed) console.log(leg.heading)
    else {
      mkdirSync(dirname(legLog(leg.name)), { recursive: true })
      log = openSync(legLog(leg.name), 'w')
      console.log(`test-legs: leg ${leg.name} (Vitest ${leg.vitest}, Node ${leg.version}) runs beside the default leg; its output: ${legLog(leg.name)}`)
    }
    const started = Date.now()
    let passed
    try {
      passed = leg.name === 'default' ? await runDefaultLeg(bin, withNode(bin), log) : await runLeg(leg.name, bin, withNode(bin), log, !streamed)
    } finally {
      if (log !== undefined) closeSync(log)
    }
    return { ...leg, passed, seconds: Math.round((Date.now() - started) / 1000) }
  }
  const outcomes = []
  const began = Date.now()
  if (sequential) {
    for (const leg of legs) outcomes.push(await run(leg, true))
  } else {
    // The default leg streams; the others write their logs, printed whole once the default leg is done.
    const others = legs.filter(leg => leg.name !== 'default').map(leg => run(leg, false))
    const first = await run(legs.find(leg => leg.name === 'default'), true)
    outcomes.push(first)
    for (const [i, pending] of others.entries()) {
      const outcome = await pending.catch(error => ({ ...legs.filter(leg => leg.name !== 'default')[i], passed: false, seconds: 0, error }))
      console.log(outcome.heading)
      if (existsSync(legLog(outcome.name))) process.stdout.write(readFileSync(legLog(outcome.name)))
      if (outcome.error !== undefined) console.log(`test-legs: leg ${outcome.name} could not run: ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`)
      outcomes.push(outcome)
    }
  }
  console.log('\ntest legs:')
  for (const one of outcomes) {
    console.log(`  ${one.passed ? 'passed' : 'FAILED'}  ${one.name} (Vitest ${one.vitest}, Node ${one.version}) in ${one.seconds} s`)
    if (failedTypeChecks.has(one.name)) console.log('    the type-check (tsc -p tsconfig.json) failed: its errors are in the leg\'s output above')
    if (!one.passed) for (const line of failureLines(one.name)) console.log(line)
  }
  if (outcomes.length > 1) console.log(`  all ${outcomes.length} legs ${sequential ? 'one after another' : 'at once'} in ${Math.round((Date.now() - began) / 1000)} s`)
  for (const stopped of stoppedSteps) console.log(`  stopped after ${STEP_TIME_LIMIT_MS / 60_000} min (--step-limit): ${stopped} (a test that never ended, e.g. a frozen browser page; the last files its log shows finished ran beside it)`)
  return outcomes.every(one => one.passed) ? 0 : 1
}

process.exitCode = await main()
