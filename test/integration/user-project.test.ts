// The package as a user gets it: `npm pack` (which builds dist/), a fresh project in a temporary folder that installs
// the tarball and its peers, a three-line vitest.config.ts, then README's commands run there with the compiled code.
import { execFile, spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
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

let workDir: string
let project: string
let manifest: Manifest

/** Runs a command in the user project and returns its exit code and merged output. */
async function inProject(command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null, output: string }> {
  let output = ''
  const child = spawn(command, args, { cwd: project, env: { ...userEnvironment(), NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString() })
  const code = await new Promise<number | null>(resolvePromise => child.on('close', resolvePromise))
  return { code, output }
}

/**
 * This process's environment without what Vitest sets for its own workers (VITEST*, NODE_ENV=test, TEST): a user's
 * shell has none of it, and Vite changes behaviour under it (it skips the dependency scan, hiding its failures).
 */
function userEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV' && name !== 'TEST'))
}

beforeAll(async () => {
  manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Manifest
  workDir = await mkdtemp(join(tmpdir(), 'awb-user-project-'))
  project = join(workDir, 'my-agent')
  // `npm pack` runs prepack (the build) like a publish would.
  const { stdout } = await run(NPM, ['pack', '--json', '--pack-destination', workDir], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 })
  const [packed] = JSON.parse(stdout) as { filename: string }[]
  await run('mkdir', ['-p', project])
  await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'my-agent', private: true, type: 'module' }, null, 2)}\n`)
  await writeFile(join(project, 'vitest.config.ts'), [
    "import { defineConfig } from 'vitest/config'",
    `import { assemblyWorld } from '${manifest.name}'`,
    'export default defineConfig({ plugins: [assemblyWorld()] })',
    '',
  ].join('\n'))
  // The required peers at the versions this checkout tests with, from npm's cache when it has them (it does after
  // `npm ci`); optional ones (gpu.js) are left out, as README's install line leaves them out.
  const peers = Object.keys(manifest.peerDependencies)
    .filter(name => manifest.peerDependenciesMeta?.[name]?.optional !== true)
    .map(name => `${name}@${manifest.devDependencies[name]}`)
  await run(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', join(workDir, packed!.filename), ...peers, `typescript@${manifest.devDependencies.typescript}`], { cwd: project, maxBuffer: 64 * 1024 * 1024 })
}, 300_000)

afterAll(async () => {
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true })
})

describe('a user project with the installed package', () => {
  it('installs compiled JavaScript only: no TypeScript sources, tests or benches, and no tsx', async () => {
    const installed = join(project, 'node_modules', manifest.name)
    const files = await readdir(installed, { recursive: true })
    expect(files.filter(file => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([])
    expect(files.filter(file => /^(test|bench|scripts|examples)\//.test(file))).toEqual([])
    expect(files).toContain(join('dist', 'plugin', 'index.js'))
    expect(files).toContain(join('dist', 'plugin', 'index.d.ts'))
    await expect(readdir(join(project, 'node_modules', 'tsx'))).rejects.toThrow(/ENOENT/)
  })

  it('type-checks a config that imports the plugin and an agent module that imports defineAgent', async () => {
    await writeFile(join(project, 'agent.ts'), (await readFile(join(ROOT, 'examples', 'page-agent', 'agent.ts'), 'utf8'))
      .replace("from '../../src/agents/index.ts'", `from '${manifest.name}/agent'`))
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, skipLibCheck: true, lib: ['ES2022', 'DOM'], types: [] },
      include: ['vitest.config.ts', 'agent.ts'],
    }))
    const { code, output } = await inProject(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'])
    expect(code, output).toBe(0)
  })

  it('`npx vitest run --project ikea-manualbook` runs the block with the bundled benchmark and records the run', async () => {
    const { code, output } = await inProject('npx', ['vitest', 'run', '--project', 'ikea-manualbook'])
    expect(code, output).toBe(0)
    expect(output).toMatch(/Tests\s+4 passed \(4\)/)
    expect(output).toMatch(/ikea-manualbook\s+4\/4/)
    const [runId] = await readdir(join(project, 'runs'))
    const run = JSON.parse(await readFile(join(project, 'runs', runId!, 'run.json'), 'utf8')) as { status: string, versions: Record<string, string> }
    expect(run.status).toBe('completed')
    expect(run.versions).toMatchObject({ [manifest.name]: manifest.version })
    const rows = (await readFile(join(project, 'runs', runId!, 'metrics.jsonl'), 'utf8')).trim().split('\n')
    expect(rows).toHaveLength(4)
  }, 300_000)

  it('runs a page agent module that imports defineAgent from the package', async () => {
    const { code, output } = await inProject('npx', ['vitest', 'run', '--project', 'partnet-none', '-t', '44266'], { AWB_AGENT: './agent.ts', AWB_RUNS: 'agent-runs' })
    expect(code, output).toBe(0)
    const [runId] = await readdir(join(project, 'agent-runs'))
    const [row] = (await readFile(join(project, 'agent-runs', runId!, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>)
    expect(row).toMatchObject({ block: 'partnet-none', sample_id: '44266', status: 'scored' })
    expect(row!.tool_calls).toBeGreaterThan(2)
  }, 300_000)

  it('installed, the page still reads nothing of the bundled answers or their generator (an agent that tries)', async () => {
    const installed = join(project, 'node_modules', manifest.name)
    const evaluation = (await readdir(join(installed, 'fixtures', 'awb-mini'), { recursive: true })).find(file => file.endsWith('evaluation.json'))
    const targets = {
      evaluation: `/@fs${join(installed, 'fixtures', 'awb-mini', evaluation!)}`,
      demonstrations: `/@fs${join(installed, 'fixtures', 'demonstrations', 'partnet-none')}`,
      generator: `/@fs${join(installed, 'dist', 'fixtures', 'generator', 'index.js')}`,
      // The control: the agent's own import must load, or the probe proves nothing.
      allowed: `/@fs${join(installed, 'dist', 'src', 'agents', 'define-agent.js')}`,
    }
    await writeFile(join(project, 'probe-agent.ts'), [
      `import { defineAgent } from '${manifest.name}/agent'`,
      `const TARGETS: Record<string, string> = ${JSON.stringify(targets)}`,
      'export default defineAgent({',
      "  name: 'probe',",
      '  async run() {',
      '    const statuses: string[] = []',
      '    for (const [name, url] of Object.entries(TARGETS)) statuses.push(`${name}=${(await fetch(url)).status}`)',
      "    return { finalAnswer: JSON.stringify({ status: 'completed', summary: `probe-statuses ${statuses.join(',')};`, checked_connections: [], uncertainties: [] }), usage: null, costUsd: null, model: null }",
      '  },',
      '})',
      '',
    ].join('\n'))
    const { output } = await inProject('npx', ['vitest', 'run', '--project', 'partnet-none', '-t', '44266'], { AWB_AGENT: './probe-agent.ts', AWB_RUNS: 'probe-runs' })
    const [runId] = await readdir(join(project, 'probe-runs'))
    const result = await readFile(join(project, 'probe-runs', runId!, 'blocks', 'partnet-none', 'samples', '44266', 'result.json'), 'utf8')
    const found = /probe-statuses ([^;]*);/.exec(result)
    expect(found, `${output}\n${result}`).not.toBeNull()
    expect(Object.fromEntries(found![1]!.split(',').map(pair => pair.split('=')))).toEqual({ evaluation: '404', demonstrations: '404', generator: '404', allowed: '200' })
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
})
