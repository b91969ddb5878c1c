// The package as a user gets it: `npm pack` (which builds dist/), a fresh `npm init -y` project (CommonJS) in a
// temporary folder, README's own install line and three-line config file under README's name for it (both read from
// README.md, not copied here), then README's commands run there with the compiled code, printing no module-type warning. On Vitest 5 (the default test leg) it runs on this Node (24) and on Node 22.12, Vitest 5's
// oldest; in the Vitest 4.1 leg on this Node (20), where the same install line resolves Vitest 4.1. In the Vitest 5
// project on this Node, the three examples docs/agents.md shows (the page agent, the Node and the Python program; the
// files in examples/, which test/unit/docs/pages.test.ts proves equal to the docs) run from the installed package on
// one sample, beside the do-nothing agent, and each must score better.
import { execFile, execFileSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..')
const run = promisify(execFile)
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm'

interface Manifest {
  name: string
  version: string
  devDependencies: Record<string, string>
  peerDependencies: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
}

const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Manifest
const RUNNING_VITEST = (JSON.parse(await readFile(join(ROOT, 'node_modules', 'vitest', 'package.json'), 'utf8')) as { version: string }).version

/**
 * What Node or Vite print about a module's type: Vite 8's check of a config file with ESM syntax loaded as CommonJS
 * (once per config load: the root and each block project), Node's for a package.json without "type".
 */
const MODULE_TYPE_WARNING = /ESM syntax in a file loaded as CommonJS|Your Vite config uses features that are unsupported|MODULE_TYPELESS_PACKAGE_JSON|Reparsing as ES module/

/** README's lines a user types: the install line (its tarball path as README gives it), the config file's name and body. */
async function readmeLines(): Promise<{ install: string[]; tarball: string; configFile: string; config: string }> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8')
  const install = readme.split('\n').find(line => /^npm i -D \S+\.tgz /.test(line))
  if (install === undefined) throw new Error('README.md has no `npm i -D <tarball> …` line')
  const config = /```ts\n(import \{ defineConfig \} from 'vitest\/config'\nimport \{ assemblyWorld \} from 'assembly-world-bench'\n[^`]*?)```/.exec(readme)?.[1]
  if (config === undefined) throw new Error('README.md has no three-line vitest.config.ts importing assemblyWorld from the package')
  const configFile = /add a three-line `(vitest\.config\.[cm]?[jt]s)`/.exec(readme)?.[1]
  if (configFile === undefined) throw new Error('README.md names no three-line config file ("add a three-line `vitest.config.…`")')
  const words = install.split(/\s+/)
  return { install: words, tarball: words.find(word => word.endsWith('.tgz'))!, configFile, config }
}

/**
 * The Node versions a user project is tried on here: this process's, plus Node 22.12 where Vitest 5 runs. The examples
 * run in one project only, Vitest 5 on this Node (the time budget of the suite). On Node 22 the project is set up,
 * type-checked and runs a block, `awb doctor` and `awb validate`; what depends on the page and Chromium rather than on
 * Node's version (a page agent module, the page's attempts on the answers) is tried on this Node (`full`).
 */
function userNodes(): { label: string; bin: string; vitestMajor: string; runsExamples: boolean; full: boolean }[] {
  const vitestMajor = RUNNING_VITEST.split('.')[0]!
  const own = { label: `Node ${process.versions.node}`, bin: dirname(process.execPath), vitestMajor, runsExamples: vitestMajor === '5', full: true }
  if (!RUNNING_VITEST.startsWith('5.')) return [own]
  const legs = JSON.parse(readFileSync(join(ROOT, 'test', 'legs', 'legs.json'), 'utf8')) as { nodes: Record<string, { version: string }> }
  const version = legs.nodes['user-project-node-22']!.version
  const bin = execFileSync('bash', [join(ROOT, 'scripts', 'provide-node.sh'), version], { encoding: 'utf8' }).trim()
  return [own, { label: `Node ${version}`, bin, vitestMajor: '5', runsExamples: false, full: false }]
}

/** The sample the examples run on, and the installed examples as docs/agents.md runs them (paths from the project). */
const BLOCK = 'partnet-none'
const SAMPLE = '44266'
const EXAMPLES = `node_modules/${manifest.name}/examples`
const EXAMPLE_AGENTS = {
  idle: 'idle',
  page: `./${EXAMPLES}/page-agent/agent.ts`,
  node: JSON.stringify({ command: ['node', `${EXAMPLES}/external-agent/agent.mjs`] }),
  python: JSON.stringify({ command: ['python3', `${EXAMPLES}/external-agent/agent.py`] }),
} as const

interface ExampleRun {
  code: number | null
  output: string
  runDir: string
  /** The sample's metrics.jsonl row. */
  row: { status: string; SCD: number; tool_calls: number }
  result: { status: string; agent_outcome?: { status: string; summary: string }; execution?: Record<string, unknown> }
  /** The names of the tool calls in conversation.jsonl, in order. */
  calls: string[]
}

/**
 * This process's environment without what Vitest sets for its own workers (VITEST*, NODE_ENV=test, TEST) and what
 * test/vitest.config.ts sets for the suite's child runs (VITE_CONFIG_NATIVE_IGNORE_WARNING): a user's shell has none
 * of it, and Vite changes behaviour under it (it skips the dependency scan, hiding its failures).
 */
function userEnvironment(): NodeJS.ProcessEnv {
  const suiteOnly = new Set(['NODE_ENV', 'TEST', 'VITE_CONFIG_NATIVE_IGNORE_WARNING'])
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && !suiteOnly.has(name)))
}

// The packed tarball is shared by every Node tried.
let workDir: string
let packedTarball: string
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'awb-user-project-'))
  // `npm pack` runs prepack (the build) like a publish would.
  const { stdout } = await run(NPM, ['pack', '--json', '--pack-destination', workDir], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 })
  const [packed] = JSON.parse(stdout) as { filename: string }[]
  packedTarball = join(workDir, packed!.filename)
}, 300_000)

afterAll(async () => {
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true })
})

// Each Node's project is its own (folder, install, runs): the Nodes run at once, each one's steps in order.
describe.concurrent.each(userNodes())('a user project on $label', ({ label, bin, vitestMajor, runsExamples, full }) => {
  let project: string

  /** Runs a command in the user project, on this describe's Node, and returns its exit code and merged output. */
  async function inProject(command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null, output: string }> {
    let output = ''
    const child = spawn(command === 'node' ? join(bin, 'node') : command, args, { cwd: project, env: { ...userEnvironment(), PATH: `${bin}:${process.env.PATH ?? ''}`, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString() })
    const code = await new Promise<number | null>(resolvePromise => child.on('close', resolvePromise))
    return { code, output }
  }

  let installOutput = ''
  let configFile = ''
  beforeAll(async () => {
    const lines = await readmeLines()
    // README names the tarball `npm pack` makes: a version bump must update README.
    expect(lines.tarball.split('/').pop()).toBe(packedTarball.split('/').pop())
    project = join(workDir, `my-agent-${label.replace(/\W+/g, '-')}`)
    await mkdir(join(project, dirname(lines.tarball)), { recursive: true })
    await run('cp', [packedTarball, join(project, lines.tarball)])
    // The project `npm init -y` makes: CommonJS (npm 11 writes "type": "commonjs", older npm no "type").
    const init = await inProject(NPM, ['init', '-y'])
    expect(init.code, init.output).toBe(0)
    configFile = lines.configFile
    await writeFile(join(project, configFile), lines.config)
    // A Vitest project of this major to begin with (README's line goes into the user's existing setup), ...
    const range = vitestMajor === '4' ? '~4.1.12' : '^5.1.0'
    const existing = await inProject(NPM, ['i', '-D', '--prefer-offline', '--no-audit', '--no-fund', `vitest@${range}`, `@vitest/browser-playwright@${range}`])
    expect(existing.code, existing.output).toBe(0)
    // ... then README's install line as written (npm, then its arguments), from npm's cache when it has the packages.
    const install = await inProject(NPM, lines.install.slice(1), { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' })
    installOutput = install.output
    expect(install.code, install.output).toBe(0)
    const typescript = await inProject(NPM, ['i', '-D', '--prefer-offline', '--no-audit', '--no-fund', `typescript@${manifest.devDependencies.typescript}`])
    expect(typescript.code, typescript.output).toBe(0)
  }, 300_000)

  describe('set up as README says', { concurrent: false }, () => {
    it(`in a Vitest ${vitestMajor} project on ${label}, README's install line keeps Vitest ${vitestMajor} and its Playwright provider, with no peer-dependency complaint`, async () => {
      const installed = (name: string) => readFile(join(project, 'node_modules', name, 'package.json'), 'utf8').then(text => (JSON.parse(text) as { version: string }).version)
      expect(await installed('vitest')).toMatch(new RegExp(`^${vitestMajor}\\.`))
      expect(await installed('@vitest/browser-playwright')).toBe(await installed('vitest'))
      expect(installOutput).not.toMatch(/ERESOLVE|peer dep|EBADENGINE/i)
    })

    it('installs compiled JavaScript only, and the examples: no TypeScript sources but the page agent example, no tests or benches, and no tsx', async () => {
      const installed = join(project, 'node_modules', manifest.name)
      const files = await readdir(installed, { recursive: true })
      expect(files.filter(file => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([join('examples', 'page-agent', 'agent.ts')])
      expect(files.filter(file => /^(test|bench|scripts)\//.test(file))).toEqual([])
      expect(files).toEqual(expect.arrayContaining([join('examples', 'external-agent', 'agent.mjs'), join('examples', 'external-agent', 'agent.py')]))
      expect(files).toContain(join('dist', 'plugin', 'index.js'))
      expect(files).toContain(join('dist', 'plugin', 'index.d.ts'))
      await expect(readdir(join(project, 'node_modules', 'tsx'))).rejects.toThrow(/ENOENT/)
    })

    it('is the CommonJS project `npm init -y` makes, where README\'s config file loads without a module-type warning (a vitest.config.ts there warns)', async () => {
      const { type } = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as { type?: string }
      expect(type === undefined || type === 'commonjs', `package.json "type" is ${String(type)}`).toBe(true)
      // The control: the same three lines as a .ts config in this project make Vite warn, once per config load.
      await writeFile(join(project, 'vitest.control.config.ts'), await readFile(join(project, configFile), 'utf8'))
      const control = await inProject('npx', ['vitest', 'list', '--config', 'vitest.control.config.ts', '--project', 'partnet-none', '--filesOnly'])
      await rm(join(project, 'vitest.control.config.ts'))
      expect(control.code, control.output).toBe(0)
      expect(control.output).toMatch(MODULE_TYPE_WARNING)
      const { code, output } = await inProject('npx', ['vitest', 'list', '--project', 'partnet-none', '--filesOnly'])
      expect(code, output).toBe(0)
      expect(output).toMatch(/partnet-none.*benchmark-block\.js/)
      expect(output).not.toMatch(MODULE_TYPE_WARNING)
    }, 120_000)

    it(`type-checks, with TypeScript ${manifest.devDependencies.typescript} (the leg's), a config that imports the plugin and the installed page agent example, copied as docs/agents.md says`, async () => {
      await run('cp', [join(project, EXAMPLES, 'page-agent', 'agent.ts'), join(project, 'agent.ts')])
      await writeFile(join(project, 'tsconfig.json'), JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, skipLibCheck: true, lib: ['ES2022', 'DOM'], types: [] },
        include: [configFile, 'agent.ts'],
      }))
      const { code, output } = await inProject('node', [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'])
      expect(code, output).toBe(0)
    })

    it('`npx vitest run --project ikea-manualbook` runs the block with the bundled benchmark and records the run', async () => {
      const { code, output } = await inProject('npx', ['vitest', 'run', '--project', 'ikea-manualbook'])
      expect(code, output).toBe(0)
      expect(output).not.toMatch(/deprecat/i)
      expect(output).not.toMatch(MODULE_TYPE_WARNING)
      expect(output).toMatch(new RegExp(`awb: Vitest ${vitestMajor}\\.\\d+\\.\\d+ \\(vitest-${vitestMajor === '4' ? '4.1' : '5'} adapter\\)`))
      expect(output).toMatch(/Tests\s+4 passed \(4\)/)
      expect(output).toMatch(/ikea-manualbook\s+4\/4/)
      const [runId] = await readdir(join(project, 'runs'))
      const run = JSON.parse(await readFile(join(project, 'runs', runId!, 'run.json'), 'utf8')) as { status: string, versions: Record<string, string> }
      expect(run.status).toBe('completed')
      expect(run.versions).toMatchObject({ [manifest.name]: manifest.version })
      const rows = (await readFile(join(project, 'runs', runId!, 'metrics.jsonl'), 'utf8')).trim().split('\n')
      expect(rows).toHaveLength(4)
    }, 300_000)

    // The probe agent is a page agent module that imports defineAgent from the installed package: its run is also the
    // proof that such a module runs (where the examples run, the installed page agent example runs too).
    if (full) it('installed, the page still reads nothing of the bundled answers or their generator (page code and a page agent module, importing defineAgent from the package, that try)', async () => {
      const installed = join(project, 'node_modules', manifest.name)
      const evaluation = (await readdir(join(installed, 'fixtures', 'awb-mini'), { recursive: true })).find(file => file.endsWith('evaluation.json'))
      const targets = {
        evaluation: `/@fs${join(installed, 'fixtures', 'awb-mini', evaluation!)}`,
        demonstrations: `/@fs${join(installed, 'fixtures', 'demonstrations', 'partnet-none')}`,
        generator: `/@fs${join(installed, 'dist', 'fixtures', 'generator', 'index.js')}`,
        // The control: a page module the server does serve, or the probe proves nothing.
        allowed: `/@fs${join(installed, 'dist', 'src', 'agents', 'define-agent.js')}`,
      }
      const probe = (label: string) => [
        `const TARGETS: Record<string, string> = ${JSON.stringify(targets)}`,
        `export async function probeStatuses(): Promise<string> {`,
        '  const statuses: string[] = []',
        '  for (const [name, url] of Object.entries(TARGETS)) statuses.push(`${name}=${await fetch(url).then(response => String(response.status), () => \'blocked\')}`)',
        `  return \`${label} \${statuses.join(',')};\``,
        '}',
        '',
      ].join('\n')
      // From the tester page (a setup file: page code that is not the agent) the serve guard answers; from the agent's
      // realm (an opaque origin) the server's answers are unreadable altogether.
      await writeFile(join(project, 'probe-page.ts'), probe('probe-statuses-page'))
      await writeFile(join(project, 'probe-realm.ts'), probe('probe-statuses-realm'))
      await writeFile(join(project, 'probe-setup.ts'), "import { probeStatuses } from './probe-page.ts'\nconsole.log(await probeStatuses())\n")
      await writeFile(join(project, 'vitest.probe.config.mts'), [
        "import { mergeConfig } from 'vitest/config'",
        `import base from './${configFile}'`,
        "export default mergeConfig(base, { test: { setupFiles: ['./probe-setup.ts'] } })",
        '',
      ].join('\n'))
      await writeFile(join(project, 'probe-agent.ts'), [
        `import { defineAgent } from '${manifest.name}/agent'`,
        "import { probeStatuses } from './probe-realm.ts'",
        'export default defineAgent({',
        "  name: 'probe',",
        '  async run() {',
        "    return { finalAnswer: JSON.stringify({ status: 'completed', summary: await probeStatuses(), checked_connections: [], uncertainties: [] }), usage: null, costUsd: null, model: null }",
        '  },',
        '})',
        '',
      ].join('\n'))
      const { code, output } = await inProject('npx', ['vitest', 'run', '--config', 'vitest.probe.config.mts', '--project', 'partnet-none', '-t', '44266'], { AWB_AGENT: './probe-agent.ts', AWB_RUNS: 'probe-runs' })
      expect(code, output).toBe(0)
      expect(output).not.toMatch(MODULE_TYPE_WARNING)
      const [runId] = await readdir(join(project, 'probe-runs'))
      const [row] = (await readFile(join(project, 'probe-runs', runId!, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>)
      expect(row).toMatchObject({ block: 'partnet-none', sample_id: '44266', status: 'scored' })
      const result = await readFile(join(project, 'probe-runs', runId!, 'blocks', 'partnet-none', 'samples', '44266', 'result.json'), 'utf8')
      const statuses = (text: string, label: string) => {
        const found = new RegExp(`${label} ([^;]*);`).exec(text)
        expect(found, `${output}\n${result}`).not.toBeNull()
        return Object.fromEntries(found![1]!.split(',').map(pair => pair.split('=')))
      }
      expect(statuses(output, 'probe-statuses-page')).toEqual({ evaluation: '404', demonstrations: '404', generator: '404', allowed: '200' })
      expect(statuses(result, 'probe-statuses-realm')).toEqual({ evaluation: 'blocked', demonstrations: 'blocked', generator: 'blocked', allowed: 'blocked' })
    }, 300_000)

    it('`npx awb doctor` opens the installed headless page without gpu.js (an optional peer it does not need)', async () => {
      await rm(join(project, 'node_modules', '.vite'), { recursive: true, force: true })
      const { code, output } = await inProject('npx', ['awb', 'doctor'])
      expect(code, output).toBe(0)
      expect(output).toMatch(/^ok\s+webmcp\s/m)
      // A scan of the GPU page (gpu.js not installed) made Vite skip pre-bundling for every page.
      expect(output).not.toMatch(/Failed to run dependency scan|could not be resolved/)
    }, 180_000)

    it('`npx awb validate` checks the bundled package with the compiled CLI', async () => {
      const { code, output } = await inProject('npx', ['awb', 'validate'])
      expect(code, output).toBe(0)
      expect(output).toMatch(/awb-mini: ok, .*5 blocks, 20 samples/)
    }, 120_000)

    /** One run of the sample with `agent`, in a runs folder of its own, and what it recorded. */
    async function runExample(name: keyof typeof EXAMPLE_AGENTS): Promise<ExampleRun> {
      const runs = `example-runs-${name}`
      const { code, output } = await inProject('npx', ['vitest', 'run', '--project', BLOCK, '-t', SAMPLE], { AWB_AGENT: EXAMPLE_AGENTS[name], AWB_RUNS: runs })
      const [runId] = await readdir(join(project, runs)).catch(() => [])
      if (runId === undefined) throw new Error(`AWB_AGENT=${EXAMPLE_AGENTS[name]} made no run:\n${output}`)
      const runDir = join(project, runs, runId)
      const sampleDir = join(runDir, 'blocks', BLOCK, 'samples', SAMPLE)
      const [row] = (await readFile(join(runDir, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as ExampleRun['row'])
      const result = JSON.parse(await readFile(join(sampleDir, 'result.json'), 'utf8')) as ExampleRun['result']
      const conversation = (await readFile(join(sampleDir, 'conversation.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as { type: string; name?: string })
      return { code, output, runDir, row: row!, result, calls: conversation.filter(entry => entry.type === 'tool_call').map(entry => entry.name!) }
    }

    if (runsExamples) it('the examples of docs/agents.md, run from the installed package, each score a lower SCD than AWB_AGENT=idle on the sample', async () => {
      // The four runs at once: each is a child Vitest mostly waiting on its browser and agent.
      const [idle, page, node, python] = await Promise.all([runExample('idle'), runExample('page'), runExample('node'), runExample('python')])
      expect(idle.row.status, idle.output).toBe('scored')
      for (const [name, example] of Object.entries({ page, node, python })) {
        expect(example.code, `${name}: ${example.output}`).toBe(0)
        expect(example.row.status, `${name}: ${example.output}`).toBe('scored')
        expect(example.result, name).toMatchObject({ status: 'completed', agent_outcome: { status: 'partial', summary: expect.stringMatching(/^[Ff]ound 6 of 6 parts/) as unknown } })
        expect(example.row.SCD, `${name} (SCD ${example.row.SCD}) against idle (SCD ${idle.row.SCD}): ${example.output}`).toBeLessThan(idle.row.SCD)
      }
      // The page agent ran in its realm (its console reaches the run's output) and called the tools as written.
      expect(page.output).toMatch(/example agent: \d+ prompt characters, 0 reference pages, tools: list_objects, /)
      expect(page.calls.slice(0, 3)).toEqual(['list_objects', 'move_camera', 'capture_scene'])
      expect(page.row.tool_calls).toBe(page.calls.length)
      // The programs talked MCP (the benchmark surface) from inside the sandbox, the package and the runs out of view.
      for (const program of [node, python]) {
        expect(program.calls[0]).toBe('list_pages')
        expect(new Set(program.calls.slice(1))).toEqual(new Set(['execute_webmcp_tool']))
        expect(program.result.execution).toMatchObject({ status: 'completed', exit_code: 0, error: null, infrastructure_error: null })
        const { options } = JSON.parse(await readFile(join(program.runDir, 'run.json'), 'utf8')) as { options: { sandbox: { enabled: boolean; hiddenPaths: string[] } } }
        expect(options.sandbox.enabled).toBe(true)
        expect(options.sandbox.hiddenPaths).toEqual(expect.arrayContaining([join(project, 'node_modules', manifest.name, 'fixtures', 'awb-mini'), dirname(program.runDir)]))
      }
    }, 300_000)
  })
})
