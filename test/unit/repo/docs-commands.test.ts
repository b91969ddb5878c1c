// Every command a reader may copy from the documentation (each line of a ```sh block in README.md and docs/*.md) is
// run by a test: the cheap ones here, against this checkout's bin/awb.mjs (`npx awb` → `node bin/awb.mjs`) on a small
// generated package and a run written for the purpose; each other one by the integration test RUN_BY names, whose
// file must show it (the fragments given); the few no test can run are in NOT_RUN with the reason. A command in none
// of them fails, saying how to fix it, and so does an entry no page holds any more.
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMMANDS } from '../../../src/cli/commands.ts'
import { createPackageFixture, type PackageFixture } from '../../helpers/package-fixture.ts'
import { writeRun } from '../../helpers/run-fixture.ts'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const run = promisify(execFile)

/** A command of the docs, with where it is. */
interface DocCommand { command: string; page: string }

/** What a command run here prints, checked beside its exit code 0. */
const RUN_HERE: Record<string, RegExp> = {
  'npx awb --help': /validate .*\n[\s\S]*status /,
  'npx awb validate': /: ok, .*\(5 blocks, 10 samples/,
  'npx awb validate --json': /"ok": ?true/,
  'npx awb status': /runs\/2026-01-01T000000\.000Z-00000000: completed[\s\S]*partnet-none +1 /,
  'npx awb status runs/<id>': /runs\/2026-01-01T000000\.000Z-00000000: completed[\s\S]*partnet-none +1 /,
  'npx awb status runs/<id> --json': /"status": ?"completed"/,
}

/** A command an integration test runs: the test file, and fragments of it that show the command (each must be there). */
interface RunBy { test: string; shows: string[]; note?: string }
const RUN_BY: Record<string, RunBy> = {
  'git clone <this repository> assembly-world-bench && (cd assembly-world-bench && bash scripts/setup.sh && npm pack)': { test: 'test/integration/user-project.test.ts', shows: ["run(NPM, ['pack'"], note: 'npm pack in this checkout, which is the clone' },
  'npm i -D ./assembly-world-bench/assembly-world-bench-0.1.0.tgz vitest @vitest/browser-playwright playwright vite': { test: 'test/integration/user-project.test.ts', shows: ['/^npm i -D \\S+\\.tgz /', 'lines.install.slice(1)'] },
  'npx vitest run --project ikea-manualbook': { test: 'test/integration/user-project.test.ts', shows: ["['vitest', 'run', '--project', 'ikea-manualbook']"] },
  'AWB_AGENT=./my-agent.ts npx vitest run': { test: 'test/integration/user-project.test.ts', shows: ["AWB_AGENT: './probe-agent.ts'"] },
  'AWB_BENCHMARK=/data/assemblyworldbench npx vitest run': { test: 'test/integration/main-job.test.ts', shows: ['AWB_BENCHMARK: fixture.root'], note: 'a generated package stands for the real one, which is not in the repository' },
  'AWB_AGENT=./node_modules/assembly-world-bench/examples/page-agent/agent.ts npx vitest run --project partnet-none -t 44266': { test: 'test/integration/user-project.test.ts', shows: ['`./${EXAMPLES}/page-agent/agent.ts`', "'--project', BLOCK, '-t', SAMPLE"] },
  'AWB_AGENT=\'{"command": ["node", "node_modules/assembly-world-bench/examples/external-agent/agent.mjs"]}\' npx vitest run --project partnet-none -t 44266': { test: 'test/integration/user-project.test.ts', shows: ["command: ['node', `${EXAMPLES}/external-agent/agent.mjs`]", "'--project', BLOCK, '-t', SAMPLE"] },
  'AWB_AGENT=\'{"command": ["python3", "node_modules/assembly-world-bench/examples/external-agent/agent.py"]}\' npx vitest run --project partnet-none -t 44266': { test: 'test/integration/user-project.test.ts', shows: ["command: ['python3', `${EXAMPLES}/external-agent/agent.py`]", "'--project', BLOCK, '-t', SAMPLE"] },
  'AWB_AGENT=./my-agent.ts npx vitest --project partnet-none -t \'44266\'': { test: 'test/integration/watch-mode.test.ts', shows: ["vitestCli('watch', ", "'--project', BLOCK, '-t', SAMPLE", 'AWB_AGENT: agent'] },
  'AWB_AGENT=codex AWB_MODEL=gpt-5.6-sol npx vitest run --project \'partnet-*\'': { test: 'test/integration/real-cli-agents.test.ts', shows: ['AWB_AGENT: kind', "AWB_MODEL: 'gpt-fake'"], note: 'against a local model server speaking the provider\'s wire format' },
  'AWB_AGENT=codex AWB_MODEL=qwen3 AWB_EFFORT=high OPENAI_BASE_URL=http://127.0.0.1:8000/v1 npx vitest run': { test: 'test/integration/real-cli-agents.test.ts', shows: ['OPENAI_BASE_URL: server.openaiBaseUrl'], note: 'AWB_EFFORT\'s flag for each CLI: test/unit/agents/cli/commands.test.ts' },
  'AWB_AGENT=claude AWB_MODEL=claude-opus-5 npx vitest run --project ikea-manualbook': { test: 'test/integration/real-cli-agents.test.ts', shows: ["runBenchmark('claude'", "AWB_MODEL: 'claude-fake'"], note: 'against a local model server' },
  'npx awb doctor': { test: 'test/integration/user-project.test.ts', shows: ["['awb', 'doctor']"] },
  'AWB_AGENT=openai:gpt-4.1 npx vitest run --project ikea-manualbook': { test: 'test/integration/api-agents.test.ts', shows: ["AWB_AGENT: 'openai:fake-gpt-model'"], note: 'against a local model server' },
  'OPENAI_BASE_URL=http://127.0.0.1:8000/v1 AWB_AGENT=openai:qwen3 npx vitest run': { test: 'test/integration/api-agents.test.ts', shows: ['OPENAI_BASE_URL: server.openaiBaseUrl'] },
  'AWB_AGENT=\'{"command": ["python3", "agent.py"], "env": ["OPENAI_API_KEY"]}\' npx vitest run': { test: 'test/integration/user-project.test.ts', shows: ["command: ['python3', `${EXAMPLES}/external-agent/agent.py`]"], note: 'the Python example as installed' },
  'npx vitest run --reporter=default --reporter=junit --outputFile.junit=test-results/junit.xml': { test: 'test/integration/main-job.test.ts', shows: ["'--reporter=default', '--reporter=junit', `--outputFile.junit="] },
  'AWB_GATES=\'{"overall": {"SR": 0.5}}\' npx vitest run': { test: 'test/integration/main-job.test.ts', shows: ['AWB_GATES: \'{"overall": {"SR": 0.9}'] },
  'npx awb curves runs/<id>': { test: 'test/integration/report-html.test.ts', shows: ["runCli(['curves', runDir"] },
  'npx awb report runs/<id>': { test: 'test/integration/main-job.test.ts', shows: ["runCli(['report', mergedRun!])"] },
  'npx awb report runs/<id> --baseline runs/<other>': { test: 'test/integration/report-html.test.ts', shows: ["runCli(['report', runDir, '--baseline', baseline"] },
  'npx vitest run --project ikea-manualbook -t \'Chair/logrelm\'': { test: 'test/integration/hostile-agent.test.ts', shows: ["const SAMPLE = 'Chair/logrelm'", "'--project', BLOCK, '-t', SAMPLE"] },
  'AWB_RESUME=latest npx vitest run': { test: 'test/integration/long-runs.test.ts', shows: ["AWB_RESUME: 'latest'"] },
  'AWB_RESUME=runs/<id> AWB_RETRY_FAILED=1 npx vitest run': { test: 'test/integration/long-runs.test.ts', shows: ["AWB_RETRY_FAILED: '1'"] },
  'npx vitest run --shard=1/2 --reporter=blob': { test: 'test/integration/main-job.test.ts', shows: ["['1/2', '2/2']", "`--shard=${shard}`, '--reporter=blob'"] },
  'npx vitest run --shard=2/2 --reporter=blob': { test: 'test/integration/main-job.test.ts', shows: ["['1/2', '2/2']", "`--shard=${shard}`, '--reporter=blob'"] },
  'npx vitest run --merge-reports': { test: 'test/integration/main-job.test.ts', shows: ["['--merge-reports'"] },
  'npx awb status runs/<id>-merged': { test: 'test/integration/main-job.test.ts', shows: ["runCli(['status', mergedRun!])"] },
}

/** Commands no test runs, and why none can. */
const NOT_RUN: Record<string, string> = {
  'bash scripts/setup.sh && npm run benchmark': 'the set-up of a fresh machine and the main job over the whole bundled package: what CI runs; the same `vitest run` with JUnit is main-job.test.ts',
  'bash scripts/setup.sh && npm test': 'README\'s test command: the whole suite, which no test runs from inside itself (CI runs it)',
  'sudo apt-get install -y bubblewrap && sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0': 'needs root and changes the machine; external-agent.test.ts checks that a run without a sandbox names both commands',
  'python -c "import pandas as pd; print(pd.read_feather(\'runs/<run-id>/steps.arrow\'))"': 'pandas is not installed here; test/unit/report/columnar.test.ts reads both Arrow files back with apache-arrow',
  'duckdb -c "INSTALL arrow FROM community; LOAD arrow; SELECT block, avg(SR) FROM read_arrow(\'runs/<run-id>/metrics.arrow\') GROUP BY block"': 'duckdb is not installed here, and the extension comes from the network',
  'AWB_REFERENCE_SCORER=/path/to/assembly-world-bench npm run bench:vs-reference -- --runs 7 --reference-runs 2 --full-samples 0': 'a bench against the reference scorer, which is not in the repository (a checkout of it and Debian\'s numpy and scipy); minutes of CPU: docs/performance.md reports a run',
  'AWB_BENCHMARK=~/.cache/assembly-world-bench/full-0/awb-full AWB_DEMONSTRATIONS=~/.cache/assembly-world-bench/full-0/demonstrations AWB_RUNS=/tmp/awb-full-runs npx vitest run': 'a replay run over the full-size package (minutes, after a quarter of an hour generating the package on demand; never committed): docs/performance.md reports one',
}

/** README.md and every page of docs/. */
async function pages(): Promise<string[]> {
  return ['README.md', ...(await readdir(join(ROOT, 'docs'))).filter(name => name.endsWith('.md')).sort().map(name => `docs/${name}`)]
}

/** The command lines of a page's ```sh blocks: comments and trailing `# …` dropped, `\` continuations joined, spaces collapsed. */
function shCommands(text: string): string[] {
  const commands: string[] = []
  for (const [, body] of text.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    for (const line of body!.replace(/\\\n/g, ' ').split('\n')) {
      const command = line.replace(/\s+#\s.*$/, '').replace(/\s+/g, ' ').trim()
      if (command !== '' && !command.startsWith('#')) commands.push(command)
    }
  }
  return commands
}

async function docCommands(): Promise<DocCommand[]> {
  const found: DocCommand[] = []
  for (const page of await pages()) for (const command of shCommands(await readFile(join(ROOT, page), 'utf8'))) found.push({ command, page })
  return found
}

describe('the commands in README.md and docs/*.md', () => {
  it('each is run here, run by the integration test RUN_BY names, or in NOT_RUN with the reason', async () => {
    const unknown = (await docCommands()).filter(({ command }) => !(command in RUN_HERE) && !(command in RUN_BY) && !(command in NOT_RUN))
    expect(unknown.map(({ command, page }) => `${page}: ${command}`), 'a command in the docs that no test runs: run it in RUN_HERE (test/unit/repo/docs-commands.test.ts) when it takes a second, else add it to RUN_BY with the integration test that runs it and the lines that show it, or change the docs to a command a test runs').toEqual([])
  })

  it('every entry of the tables is still in a page (remove the ones the docs dropped)', async () => {
    const documented = new Set((await docCommands()).map(({ command }) => command))
    expect([...Object.keys(RUN_HERE), ...Object.keys(RUN_BY), ...Object.keys(NOT_RUN)].filter(command => !documented.has(command))).toEqual([])
  })

  it('each test RUN_BY names shows its command', async () => {
    const missing: string[] = []
    for (const [command, { test, shows }] of Object.entries(RUN_BY)) {
      const source = await readFile(join(ROOT, test), 'utf8').catch(() => '')
      for (const fragment of shows) if (!source.includes(fragment)) missing.push(`${command}: ${test} has no ${fragment}`)
    }
    expect(missing).toEqual([])
  })
})

describe('the commands run here', () => {
  let pkg: PackageFixture
  let cwd: string
  beforeAll(async () => {
    pkg = await createPackageFixture()
    cwd = await mkdtemp(join(tmpdir(), 'awb-docs-commands-'))
    const dir = await writeRun({ dir: join(cwd, 'runs', '2026-01-01T000000.000Z-00000000'), attempts: [{ block: 'partnet-none', sampleId: 'sample-00' }] })
    const runJson = JSON.parse(await readFile(join(dir, 'run.json'), 'utf8')) as Record<string, unknown>
    await writeFile(join(dir, 'run.json'), `${JSON.stringify({ ...runJson, benchmark: { local: pkg.root, frozen_release: false, revision: null } }, null, 2)}\n`)
  }, 60_000)
  afterAll(async () => {
    await pkg?.cleanup()
    if (cwd !== undefined) await rm(cwd, { recursive: true, force: true })
  })

  it.concurrent.each(Object.entries(RUN_HERE))('`%s`, as the docs write it (npx awb = node bin/awb.mjs; the package: AWB_BENCHMARK, a small generated one)', async (command, prints) => {
    const line = command.replace(/^npx awb\b/, `"${process.execPath}" "${join(ROOT, 'bin', 'awb.mjs')}"`).replaceAll('<id>', '2026-01-01T000000.000Z-00000000')
    const { stdout, stderr } = await run('bash', ['-c', line], { cwd, env: { ...process.env, AWB_BENCHMARK: pkg.root, NO_COLOR: '1' } })
    expect(`${stdout}\n${stderr}`).toMatch(prints)
  }, 30_000)
})

describe('the synopsis of each `awb` command in docs/cli.md', () => {
  it('names only commands and flags the command table declares', async () => {
    const text = await readFile(join(ROOT, 'docs', 'cli.md'), 'utf8')
    const synopsis = /^```text\n([\s\S]*?)^```/m.exec(text)?.[1]
    expect(synopsis, 'docs/cli.md has no ```text block of synopses').toBeDefined()
    const wrong: string[] = []
    for (const line of synopsis!.split('\n').filter(line => line.startsWith('npx awb '))) {
      const name = line.split(' ')[2]!
      const spec = COMMANDS.find(command => command.usage.split(' ')[0] === name)
      if (spec === undefined) { wrong.push(`${line}: no command ${name}`); continue }
      const declared = new Set(spec.options.map(option => option.flags.split(/[ ,]/)[0]))
      for (const [flag] of line.replace(/\s+#\s.*$/, '').matchAll(/--[a-z][\w-]*/g)) if (!declared.has(flag.replace(/^--no-/, '--'))) wrong.push(`${line}: ${name} declares no ${flag}`)
    }
    expect(wrong).toEqual([])
    expect(COMMANDS.map(command => command.usage.split(' ')[0]).filter(name => !synopsis!.includes(`npx awb ${name!} `) && !synopsis!.includes(`npx awb ${name!}\n`))).toEqual([])
  })
})
