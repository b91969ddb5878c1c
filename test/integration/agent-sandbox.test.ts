// The agent sandbox under attack: a hostile external program (real bubblewrap, real processes) tries to read the
// sample's evaluation.json by the absolute path it knows or finds in its parent's /proc entries, to read secrets from
// its own environment, /proc/1 and its parent's, to plant a file in the runs folder, and to leave a detached,
// double-forked child behind that would write after the sample. With the sandbox every attempt fails and the child
// is dead the moment the run returns; with AWB_SANDBOX=off the same program succeeds (the attacks are real). Also:
// hidden paths inside a folder the program needs are covered, a CLI's login is visible read-only and nothing else of
// HOME is, the sandbox as a non-root user, and the refusal when no sandbox can start.
import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCliAgent } from '../../src/agents/cli/index.ts'
import { composePrompt } from '../../src/agents/index.ts'
import { runExternalAgent } from '../../src/agents/external/index.ts'
import { DEFAULT_SANDBOX, SandboxError, type SandboxSettings } from '../../src/agents/sandbox/index.ts'

/** Planted in the ground truth, the project's .env and the harness's environment; must reach the agent nowhere. */
const CANARY = 'awb-canary-7c1e5a90d3'
/** Port 9 of the loopback: nothing answers; these programs never need their MCP endpoint. */
const NO_ENDPOINT = 'http://127.0.0.1:9/unused/mcp'

let scratch: string
/** The directory Vitest would run in: holds the benchmark, the runs folder, a .env and the agent's own folder. */
let project: string
let targets: { evaluation: string, pkg: string, runs: string, dotenv: string }
let attacker: string

/** The hostile program: every attempt lands in report.json in its working directory (its workspace). */
const ATTACKER = String.raw`
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
const targets = JSON.parse(process.env.AWB_TEST_TARGETS)
const report = { reads: {}, writes: {}, lists: {}, env: { ...process.env }, pid: process.pid, ppid: process.ppid, proc: {} }
const attempt = (fn) => { try { return fn() } catch (error) { return 'ERR ' + (error.code ?? error.message) } }
const read = (label, path) => { report.reads[label] = attempt(() => readFileSync(path, 'latin1')) }
read('evaluation', targets.evaluation)
read('dotenv', targets.dotenv)
read('shadow', '/etc/shadow')
read('proc1-environ', '/proc/1/environ')
read('proc1-cmdline', '/proc/1/cmdline')
read('parent-environ', '/proc/' + process.ppid + '/environ')
read('parent-cmdline', '/proc/' + process.ppid + '/cmdline')
// Every path a visible process gives away (cwd, root, argv, environment values), tried as the package's place.
const pids = readdirSync('/proc').filter(name => /^\d+$/.test(name))
report.pids = pids
const guesses = new Set()
for (const pid of pids) {
  for (const link of ['cwd', 'root']) { const target = attempt(() => readlinkSync('/proc/' + pid + '/' + link)); report.proc[pid + '/' + link] = target; guesses.add(target) }
  for (const file of ['cmdline', 'environ']) {
    const text = attempt(() => readFileSync('/proc/' + pid + '/' + file, 'latin1'))
    for (const token of text.split(/[\0=]/)) if (isAbsolute(token)) guesses.add(token)
  }
}
for (const guess of [...guesses].filter(path => typeof path === 'string' && isAbsolute(path))) {
  for (const candidate of [guess, join(guess, 'evaluation.json'), join(guess, 'blocks/b/samples/s/evaluation.json')]) {
    const text = attempt(() => readFileSync(candidate, 'latin1'))
    if (text.includes('gt_poses')) report.reads['guess ' + candidate] = text
  }
}
report.lists.pkg = attempt(() => readdirSync(targets.pkg))
report.lists.runs = attempt(() => readdirSync(targets.runs))
report.writes.runs = attempt(() => { writeFileSync(join(targets.runs, 'planted.txt'), 'planted'); return 'written' })
report.pidNamespace = readlinkSync('/proc/self/ns/pid')
// A detached, double-forked child in its own session, meant to outlive the sample and write afterwards.
spawn('sh', ['-c', 'setsid nohup sh -c "echo \\$\\$ > child.pid; sleep 600; echo late > ' + join(targets.runs, 'late.txt') + '; echo late > late.txt" </dev/null >/dev/null 2>&1 & exit 0'], { stdio: 'ignore' })
while (!existsSync('child.pid') || readFileSync('child.pid', 'utf8').trim() === '') { /* until the child is running */ }
report.childPid = Number(readFileSync('child.pid', 'utf8').trim())
writeFileSync('report.json', JSON.stringify(report))
console.log('done')
`

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'awb-sandbox-attack-'))
  project = join(scratch, 'project')
  const pkg = join(project, 'benchmark')
  const sampleDir = join(pkg, 'blocks', 'b', 'samples', 's')
  await mkdir(sampleDir, { recursive: true })
  await mkdir(join(project, 'runs'), { recursive: true })
  await mkdir(join(project, 'agents'), { recursive: true })
  targets = { evaluation: join(sampleDir, 'evaluation.json'), pkg, runs: join(project, 'runs'), dotenv: join(project, '.env') }
  await writeFile(targets.evaluation, JSON.stringify({ gt_poses: { a: [0, 0, 0, 1, 0, 0, 0] }, note: `${CANARY}-ground-truth` }))
  await writeFile(targets.dotenv, `OPENAI_API_KEY=${CANARY}-dotenv\n`)
  attacker = join(project, 'agents', 'attacker.mjs')
  await writeFile(attacker, ATTACKER)
})

afterAll(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true })
})

/** The harness's environment with planted secrets, as a developer's shell or a CI job has them. */
function plantedEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, AWB_TEST_SECRET: `${CANARY}-env`, GITHUB_TOKEN: `${CANARY}-github`, OPENAI_API_KEY: `${CANARY}-openai`, AWB_TEST_TARGETS: JSON.stringify(targets), AWB_BENCHMARK: targets.pkg }
}

function settings(overrides: Partial<SandboxSettings> = {}): SandboxSettings {
  // The run's hidden paths (benchmark, runs) and the one variable the test lists, as an agent spec's `env` would.
  return { ...DEFAULT_SANDBOX, hiddenPaths: [targets.pkg, targets.runs], passEnv: ['AWB_TEST_TARGETS'], ...overrides }
}

interface AttackReport {
  reads: Record<string, string>
  writes: Record<string, string>
  lists: Record<string, unknown>
  env: Record<string, string>
  pid: number
  ppid: number
  pids: string[]
  proc: Record<string, string>
  pidNamespace: string
  childPid: number
}

async function attack(sandbox: SandboxSettings, workspaceParent = scratch): Promise<{ report: AttackReport, workspace: string }> {
  const workspace = await mkdtemp(join(workspaceParent, 'ws-'))
  const run = await runExternalAgent({
    command: ['node', 'agents/attacker.mjs'],
    cwd: project,
    prompt: composePrompt('Assemble the supplied parts.\n'),
    pages: [],
    mcpUrl: NO_ENDPOINT,
    workspace,
    sample: { block: 'b', sampleId: 's' },
    env: { ...plantedEnvironment(), PATH: `${join(process.execPath, '..')}:${process.env.PATH ?? ''}` },
    sandbox,
    timeoutMs: 60_000,
    onRecord: () => undefined,
  })
  expect(run.execution.exit_code, run.execution.stderr).toBe(0)
  return { report: JSON.parse(await readFile(join(workspace, 'report.json'), 'utf8')) as AttackReport, workspace }
}

/** Host processes in the PID namespace `namespace` (`pid:[inode]`); processes we may not inspect are not ours. */
function processesInNamespace(namespace: string): number[] {
  return readdirSync('/proc').filter(name => /^\d+$/.test(name)).filter((pid) => {
    try {
      return readlinkSync(`/proc/${pid}/ns/pid`) === namespace
    } catch {
      return false
    }
  }).map(Number)
}

function isAlive(pid: number): boolean {
  try {
    // A killed orphan may linger as a zombie until reaped: that is dead too.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

describe('the agent sandbox against a hostile external program', () => {
  // The workspace beside the project (TMPDIR elsewhere, the usual case) or inside it (TMPDIR in the project).
  it.for([['beside', false], ['inside', true]] as const)('no ground truth, no secret, no write outside the workspace, and nothing outlives the sample (workspace %s the project)', async ([, isInside]) => {
    const { report, workspace } = await attack(settings(), isInside ? project : scratch)
    // The package, the runs folder and the project's .env are simply not there.
    expect(report.reads.evaluation).toBe('ERR ENOENT')
    expect(report.reads.dotenv).toBe('ERR ENOENT')
    expect(report.lists).toEqual({ pkg: 'ERR ENOENT', runs: 'ERR ENOENT' })
    // What other users may not read in /etc is covered (even for a root harness): empty, or refused.
    expect(report.reads.shadow).toMatch(/^$|^ERR /)
    expect(report.writes.runs).toMatch(/^ERR (ENOENT|EROFS|EACCES)/)
    // It is its PID namespace's init: no parent in view (the harness's environment held the secrets), and /proc
    // lists only itself and what it started.
    expect(report).toMatchObject({ pid: 1, ppid: 0 })
    expect(report.reads['parent-environ']).toBe('ERR ENOENT')
    expect(report.reads['proc1-environ']).not.toBe('')
    expect(report.pids.length).toBeLessThan(6)
    expect(Object.values(report.proc)).not.toContain(project)
    // The allow-list: no planted secret, no AWB setting naming the package; the harness's own variables are there.
    expect(Object.keys(report.env)).not.toEqual(expect.arrayContaining(['AWB_TEST_SECRET']))
    expect(report.env).not.toHaveProperty('GITHUB_TOKEN')
    expect(report.env).not.toHaveProperty('OPENAI_API_KEY')
    expect(report.env).not.toHaveProperty('AWB_BENCHMARK')
    expect(report.env).toMatchObject({ AWB_MCP_URL: NO_ENDPOINT, AWB_WORKSPACE: workspace, AWB_BLOCK: 'b', AWB_SAMPLE_ID: 's' })
    // Whatever it read, tried or listed: the canary is in none of it.
    expect(JSON.stringify(report)).not.toContain(CANARY)
    // The run has returned: its PID namespace, the detached child included, is gone — no waiting involved.
    expect(processesInNamespace(report.pidNamespace)).toEqual([])
    expect(readdirSync(targets.runs)).toEqual([])
    expect(existsSync(join(workspace, 'late.txt'))).toBe(false)
  })

  it('with AWB_SANDBOX=off the same program reads the ground truth and its child survives: the attacks are real', async () => {
    const { report } = await attack(settings({ enabled: false }))
    try {
      expect(report.reads.evaluation).toContain(`${CANARY}-ground-truth`)
      expect(report.reads.dotenv).toContain(`${CANARY}-dotenv`)
      expect(isAlive(report.childPid)).toBe(true)
      // The environment allow-list holds without the sandbox: the secrets stay behind.
      expect(JSON.stringify(report.env)).not.toContain(CANARY)
    } finally {
      // The child leads its own session (setsid): its group holds it and its sleep.
      process.kill(-report.childPid, 'SIGKILL')
      await rm(join(targets.runs, 'planted.txt'), { force: true })
    }
  })

  it('a hidden path inside a folder the program needs (its node_modules) is covered; the rest of that folder is shown', async () => {
    const tool = join(project, 'tool')
    const hiddenPkg = join(tool, 'node_modules', 'bench-package')
    await mkdir(hiddenPkg, { recursive: true })
    await writeFile(join(hiddenPkg, 'evaluation.json'), `{"note": "${CANARY}-nested"}`)
    await writeFile(join(tool, 'node_modules', 'helper.mjs'), 'export const helper = "helper loaded"\n')
    await writeFile(join(tool, 'agent.mjs'), `import { readdirSync, readFileSync } from 'node:fs'\nimport { helper } from './node_modules/helper.mjs'\nconst read = path => { try { return readFileSync(path, 'utf8') } catch (error) { return error.code } }\nconsole.log(JSON.stringify({ helper, evaluation: read(${JSON.stringify(join(hiddenPkg, 'evaluation.json'))}), listed: readdirSync(${JSON.stringify(hiddenPkg)}) }))\n`)
    const stdout: string[] = []
    const run = await runExternalAgent({
      command: ['node', 'tool/agent.mjs'],
      cwd: project,
      prompt: 'p',
      pages: [],
      mcpUrl: NO_ENDPOINT,
      workspace: await mkdtemp(join(scratch, 'ws-')),
      sample: { block: 'b', sampleId: 's' },
      env: { ...plantedEnvironment(), PATH: `${join(process.execPath, '..')}:${process.env.PATH ?? ''}` },
      sandbox: settings({ hiddenPaths: [targets.pkg, targets.runs, hiddenPkg] }),
      onRecord: (entry) => { if (entry.type === 'event') stdout.push((entry.event as { text: string }).text) },
    })
    expect(run.execution.exit_code, run.execution.stderr).toBe(0)
    expect(JSON.parse(stdout[0]!)).toEqual({ helper: 'helper loaded', evaluation: 'ENOENT', listed: [] })
  })

  it('an agent CLI sees its login files read-only and its key variables, nothing else of HOME or the environment', async () => {
    const home = await mkdtemp(join(scratch, 'home-'))
    await mkdir(join(home, '.claude'))
    await writeFile(join(home, '.claude', '.credentials.json'), '{"claudeAiOauth": "login-token"}')
    await writeFile(join(home, '.ssh-key'), `${CANARY}-ssh`)
    const workspace = await mkdtemp(join(scratch, 'ws-'))
    const probe = join(scratch, 'cli-probe.mjs')
    // Stands in for the CLI: it reports what it can see and exits (its run fails, which is not the point here).
    await writeFile(probe, `import { readFileSync, writeFileSync } from 'node:fs'\nimport { join } from 'node:path'\nconst attempt = fn => { try { return fn() } catch (error) { return 'ERR ' + error.code } }\nconst home = process.env.HOME\nwriteFileSync('cli.json', JSON.stringify({ home, login: attempt(() => readFileSync(join(home, '.claude/.credentials.json'), 'utf8')), overwrite: attempt(() => writeFileSync(join(home, '.claude/.credentials.json'), 'x')), own: attempt(() => { writeFileSync(join(home, '.claude/session.json'), '{}'); return 'written' }), ssh: attempt(() => readFileSync(join(home, '.ssh-key'), 'utf8')), env: process.env }))\n`)
    await runCliAgent({
      kind: 'claude',
      model: 'm',
      prompt: 'p',
      pages: [],
      mcp: { url: NO_ENDPOINT },
      workspace,
      env: { ...plantedEnvironment(), HOME: home, ANTHROPIC_API_KEY: 'sk-ant-for-the-cli' },
      executable: { command: process.execPath, args: [probe] },
      sandbox: settings(),
      timeoutMs: 60_000,
      onRecord: () => undefined,
    })
    const seen = JSON.parse(await readFile(join(workspace, 'cli.json'), 'utf8')) as { home: string, login: string, overwrite: string, own: string, ssh: string, env: Record<string, string> }
    expect(seen).toMatchObject({ home, login: '{"claudeAiOauth": "login-token"}', overwrite: 'ERR EROFS', own: 'written', ssh: 'ERR ENOENT' })
    expect(seen.env).toMatchObject({ ANTHROPIC_API_KEY: 'sk-ant-for-the-cli' })
    expect(JSON.stringify(seen)).not.toContain(CANARY)
    // The host's login file is unchanged; what the CLI wrote in its HOME went with its sandbox.
    expect(readFileSync(join(home, '.claude', '.credentials.json'), 'utf8')).toBe('{"claudeAiOauth": "login-token"}')
    expect(existsSync(join(home, '.claude', 'session.json'))).toBe(false)
  })

  it('runs as a non-root user (an unprivileged user namespace, as on a CI runner) with the same view', async () => {
    const isRoot = process.getuid?.() === 0
    const dir = await mkdtemp(join(tmpdir(), 'awb-sandbox-nobody-'))
    try {
      // As root, bubblewrap is started through setpriv as nobody (65534); a non-root test run already is unprivileged.
      const bwrap = join(dir, 'bwrap-as-nobody')
      await writeFile(bwrap, `#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups ${execFileSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).trim()} "$@"\n`)
      await chmod(bwrap, 0o755)
      const workspace = join(dir, 'ws')
      await mkdir(workspace)
      const script = join(dir, 'whoami.mjs')
      await writeFile(script, `import { readFileSync, readlinkSync, writeFileSync } from 'node:fs'\nwriteFileSync('who.json', JSON.stringify({ uid: process.getuid(), ppid: process.ppid, ns: readlinkSync('/proc/self/ns/pid'), secret: process.env.AWB_TEST_SECRET ?? null, evaluation: (() => { try { return readFileSync(${JSON.stringify(targets.evaluation)}, 'utf8') } catch (error) { return error.code } })() }))\nconsole.log('ok')\n`)
      chmodSync(dir, 0o755)
      if (isRoot) chownSync(workspace, 65534, 65534)
      // The Node that runs the tests may lie where nobody cannot reach it (a checkout under /root, a 0700 temp folder):
      // the program runs a copy of it from this world-readable folder.
      const node = join(dir, 'node')
      await copyFile(process.execPath, node)
      await chmod(node, 0o755)
      const run = await runExternalAgent({
        command: [node, script],
        prompt: 'who am I',
        pages: [],
        mcpUrl: NO_ENDPOINT,
        workspace,
        sample: { block: 'b', sampleId: 's' },
        env: plantedEnvironment(),
        sandbox: settings(isRoot ? { bwrap } : {}),
        timeoutMs: 60_000,
        onRecord: () => undefined,
      })
      expect(run.execution.exit_code, run.execution.stderr).toBe(0)
      const who = JSON.parse(await readFile(join(workspace, 'who.json'), 'utf8')) as { uid: number, ppid: number, ns: string, secret: string | null, evaluation: string }
      expect(who.uid).toBe(isRoot ? 65534 : process.getuid?.())
      expect(who).toMatchObject({ ppid: 0, secret: null, evaluation: 'ENOENT' })
      expect(processesInNamespace(who.ns)).toEqual([])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('no sandbox available: the program is refused with how to enable one, and never runs', async () => {
    const workspace = await mkdtemp(join(scratch, 'ws-'))
    const refused = runExternalAgent({
      command: [process.execPath, '-e', 'require("fs").writeFileSync("ran.txt", "ran"); console.log("ran")'],
      prompt: 'p',
      pages: [],
      mcpUrl: NO_ENDPOINT,
      workspace,
      sample: { block: 'b', sampleId: 's' },
      sandbox: settings({ bwrap: join(scratch, 'no-such-bwrap') }),
      onRecord: () => undefined,
    })
    await expect(refused).rejects.toBeInstanceOf(SandboxError)
    await expect(refused).rejects.toMatchObject({ code: 'SANDBOX_UNAVAILABLE' })
    await expect(refused).rejects.toThrow(/no-such-bwrap was not found.*sudo apt-get install bubblewrap.*kernel\.apparmor_restrict_unprivileged_userns=0.*AWB_SANDBOX=off/)
    expect(existsSync(join(workspace, 'ran.txt'))).toBe(false)
  })
})
