// `awb doctor [--json]`: checks the toolchain (Node, Chromium, MuJoCo, a WebMCP round trip in headless Chromium),
// the agent sandbox (bubblewrap starts), agent CLIs (for each one found, its version, whether the tests cover it, a
// real MCP handshake in the sandbox — its model must be offered our tools — and which credential it uses), API key
// presence and the scoring backend; prints a report. Calls no model (a local stub answers the CLIs) and never prints a key.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import * as z from 'zod'
import type { ToolRelay } from '../../mcp/index.ts'
import { readVariable } from '../../settings/variables/index.ts'
import { parseFlags, scoringBackend } from '../flags.ts'

/** `engineBuild` of environment.md §1: SHA-256 of `mujoco.wasm` in `@mujoco/mujoco` 3.12.0. */
export const MUJOCO_ENGINE_BUILD = '70f991e34b22674611d0cba181a9afb7b66914557c0817d5b5b0f7de10e6d548'
/** The lowest Node this project supports (package.json `engines`). */
const MIN_NODE: readonly [number, number, number] = [20, 19, 0]
/** Limit of each `--version` probe (runner.md §4.8). */
const VERSION_PROBE_TIMEOUT_MS = 15_000
/** Limit of the WebMCP round trip in the page (runner.md §4.8: doctor WebMCP discovery). */
const WEBMCP_TIMEOUT_MS = 30_000
/** Key variables reported as present or missing; their values are never read into the report. */
const KEY_VARIABLES = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'CODEX_API_KEY'] as const
const AGENT_CLIS = ['codex', 'claude'] as const

const DoctorFlagsSchema = z.looseObject({ json: z.boolean().optional() })

/** `ok` passed, `missing` an optional tool is absent, `failed` a check ran and failed, `skipped` it could not run. */
export type CheckStatus = 'ok' | 'missing' | 'failed' | 'skipped'

export interface DoctorCheck {
  status: CheckStatus
  /** One line for people: versions, paths, or what to do. */
  detail: string
  /** Essential checks decide the exit code. */
  essential: boolean
  data?: Record<string, unknown>
}

export interface DoctorReport {
  ok: boolean
  checks: Record<string, DoctorCheck>
}

export async function run(args: unknown[]): Promise<number> {
  const flags = parseFlags('doctor', DoctorFlagsSchema, args.at(-1))
  const report = await runDoctor(process.env)
  if (flags.json === true) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  } else {
    for (const [name, check] of Object.entries(report.checks)) process.stdout.write(`${check.status.padEnd(8)} ${name.padEnd(18)} ${check.detail}\n`)
    process.stdout.write(report.ok ? 'doctor: the essentials (Node, Chromium, MuJoCo, WebMCP) pass\n' : 'doctor: an essential check failed (see above)\n')
  }
  return report.ok ? 0 : 1
}

/** Runs every check; `ok` when Node, Chromium, MuJoCo and the WebMCP round trip pass. Keys are looked up in `env`, then `<cwd>/.env`. */
export async function runDoctor(env: NodeJS.ProcessEnv, options: { cwd?: string } = {}): Promise<DoctorReport> {
  const checks: Record<string, DoctorCheck> = {}
  checks.node = checkNode()
  const chromium = await checkChromium(env)
  checks.chromium = chromium.check
  checks.mujoco = await checkMujoco()
  checks.webmcp = chromium.path === undefined || checks.mujoco.status !== 'ok'
    ? { status: 'skipped', essential: true, detail: 'needs Chromium and MuJoCo (see above)' }
    : await checkWebMcp(chromium.path)
  checks.sandbox = await checkSandbox(env)
  for (const cli of AGENT_CLIS) checks[`agent ${cli}`] = await checkAgentCli(cli, env)
  try {
    const { readProviderEnv } = await import('../../llm/index.ts')
    const merged = readProviderEnv({ env, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) })
    for (const variable of KEY_VARIABLES) {
      const isExported = (env[variable] ?? '').trim() !== ''
      const isPresent = isExported || (merged[variable] ?? '').trim() !== ''
      const detail = isExported ? 'set (exported; value not shown)' : isPresent ? 'set in .env (value not shown)' : 'not set, exported or in .env (needed only for the agents that use it)'
      checks[variable] = { status: isPresent ? 'ok' : 'missing', essential: false, detail }
    }
  } catch (error) {
    checks.credentials = { status: 'failed', essential: false, detail: `key presence unknown: ${describe(error)}` }
  }
  checks.scoring = await checkScoring(env)
  const ok = Object.values(checks).every(check => !check.essential || check.status === 'ok')
  return { ok, checks }
}

function checkNode(): DoctorCheck {
  const version = process.versions.node
  const parts = version.split('.').map(Number)
  let isNewEnough = true
  for (let i = 0; i < 3; i++) {
    const have = parts[i] ?? 0
    if (have !== MIN_NODE[i]) {
      isNewEnough = have > MIN_NODE[i]!
      break
    }
  }
  return { status: isNewEnough ? 'ok' : 'failed', essential: true, detail: `v${version}${isNewEnough ? '' : `; needs >= ${MIN_NODE.join('.')}`}`, data: { version } }
}

async function checkChromium(env: NodeJS.ProcessEnv): Promise<{ check: DoctorCheck; path: string | undefined }> {
  const { findChromium } = await import('../../shared/chromium.ts')
  const path = findChromium(env)
  if (path === undefined) {
    const configured = readVariable(env, 'AWB_CHROMIUM')
    const where = configured === undefined ? 'no Chromium at /usr/bin/chromium-headless-shell, chromium, chromium-browser, google-chrome(-stable)' : `AWB_CHROMIUM=${configured} is not an executable`
    return { check: { status: 'failed', essential: true, detail: `${where}; install Chromium or set AWB_CHROMIUM to its path` }, path: undefined }
  }
  const version = await probeVersion(path, env)
  if (version.kind !== 'ok') return { check: { status: 'failed', essential: true, detail: `${path} --version failed: ${version.kind === 'failed' ? version.message : 'not found'}`, data: { path } }, path: undefined }
  return { check: { status: 'ok', essential: true, detail: `${version.text} (${path})`, data: { path, version: version.text } }, path }
}

async function checkMujoco(): Promise<DoctorCheck> {
  try {
    const { loadMujoco, MUJOCO_VERSION } = await import('../../world/index.ts')
    const mujoco = await loadMujoco()
    const version = mujoco.mj_versionString()
    const wasmPath = createRequire(import.meta.url).resolve('@mujoco/mujoco/mujoco.wasm')
    const engineBuild = createHash('sha256').update(await readFile(wasmPath)).digest('hex')
    const data = { version, engineBuild, wasm: wasmPath }
    if (engineBuild !== MUJOCO_ENGINE_BUILD) {
      return { status: 'failed', essential: true, data, detail: `MuJoCo ${version} loads but mujoco.wasm SHA-256 is ${engineBuild}, not the 3.12.0 engineBuild ${MUJOCO_ENGINE_BUILD}; reinstall @mujoco/mujoco@${MUJOCO_VERSION}` }
    }
    return { status: 'ok', essential: true, data, detail: `${version}, engineBuild ${engineBuild.slice(0, 12)}… matches environment.md §1` }
  } catch (error) {
    return { status: 'failed', essential: true, detail: `MuJoCo does not load: ${describe(error)}` }
  }
}

/** Opens a two-box episode built in memory in headless Chromium, registers its tools, runs get_scene and capture_scene. */
async function checkWebMcp(chromiumPath: string): Promise<DoctorCheck> {
  try {
    const { runEpisodeInBrowser } = await import('../../headless/index.ts')
    const episode = await tinyEpisode()
    const result = await runEpisodeInBrowser({ episode, executablePath: chromiumPath, runTimeoutMs: WEBMCP_TIMEOUT_MS, source: 'doctor episode', calls: [{ name: 'get_scene' }, { name: 'capture_scene' }] })
    const [scene, capture] = result.outputs
    const objects = scene === undefined ? undefined : (JSON.parse(scene.output) as { objects?: unknown }).objects
    const image = capture === undefined ? undefined : (JSON.parse(capture.output) as { content?: { type?: unknown; data?: unknown }[] }).content?.[0]
    const data = { api: result.webmcp, renderer: result.renderer, gpu: result.gpu, via: result.outputs.map(output => output.via) }
    if (!Array.isArray(objects) || objects.length !== 2 || scene?.via !== 'webmcp') {
      return { status: 'failed', essential: true, data, detail: `get_scene through WebMCP did not list the 2 parts: ${scene?.output.slice(0, 200) ?? 'no answer'}` }
    }
    if (image?.type !== 'image' || typeof image.data !== 'string') {
      return { status: 'failed', essential: true, data, detail: `capture_scene through WebMCP returned no image: ${capture?.output.slice(0, 200) ?? 'no answer'}` }
    }
    return { status: 'ok', essential: true, data, detail: `get_scene + capture_scene via ${result.webmcp} WebMCP (${result.renderer} on ${result.gpu})` }
  } catch (error) {
    return { status: 'failed', essential: true, detail: `WebMCP round trip in headless Chromium failed: ${describe(error)}` }
  }
}

async function tinyEpisode(): Promise<Uint8Array> {
  const [{ buildInitialEpisode }, { encodeEpisode }] = await Promise.all([import('../../../fixtures/generator/index.ts'), import('../../episode/index.ts')])
  const parts = [0, 1].map(i => ({ id: String(i), mesh: boxMesh(i * 0.5), gtPose: [0, 0, 0, 1, 0, 0, 0] as [number, number, number, number, number, number, number], assembled: boxMesh(0) }))
  const episode = buildInitialEpisode({
    id: `awa-${'d0c7'.repeat(16)}`,
    name: 'doctor / two boxes',
    task: 'awb doctor round trip',
    producer: { backend: 'wasm', engine: '3.12.0', implementation: 'awb-doctor', language: 'typescript' },
    parts,
  })
  return encodeEpisode(episode, { source: 'doctor episode' })
}

/** An axis-aligned 0.2-unit cube centred at (x, 0, 0.1): 8 vertices, 12 outward triangles. */
function boxMesh(x: number): { vertices: Float64Array; faces: Uint32Array } {
  const h = 0.1
  const vertices: number[] = []
  for (const dz of [-h, h]) for (const [dx, dy] of [[-h, -h], [h, -h], [h, h], [-h, h]] as const) vertices.push(x + dx, dy, h + dz)
  const faces = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7]
  return { vertices: Float64Array.from(vertices), faces: Uint32Array.from(faces) }
}

/**
 * One agent CLI: missing (not an error: only the runs that use it need it), or its version, whether the tests cover
 * that version, and a real MCP handshake. An untested version keeps the handshake's status: it may well work, the
 * verdict only says nobody checked it here.
 */
export async function checkAgentCli(cli: (typeof AGENT_CLIS)[number], env: NodeJS.ProcessEnv): Promise<DoctorCheck> {
  const version = await probeVersion(cli, env)
  switch (version.kind) {
    case 'ok': {
      const { cliVersionCoverage } = await import('../../agents/cli/index.ts')
      const coverage = cliVersionCoverage(cli, version.text)
      const head = `${version.text}, ${coverage.verdict}`
      // Which key or login the CLI will use (a variable's name or a file's path, never a value).
      const { cliCredentialInUse } = await import('../../agents/cli/index.ts')
      const credential = cliCredentialInUse(cli, env)
      const data = { version: version.text, semver: coverage.version, tested: coverage.isTested, credential: credential.kind === 'variable' ? credential.name : credential.kind === 'login' ? credential.file : null }
      const tail = `; credential: ${credential.detail}`
      // The binary existing proves little: the handshake shows whether its model would see the benchmark tools.
      try {
        const { checkCliMcpHandshake } = await import('../../agents/cli/index.ts')
        const { sandboxSettingsFromEnv } = await import('../../settings/index.ts')
        const handshake = await checkCliMcpHandshake({ kind: cli, env, relay: handshakeRelay(), sandbox: sandboxSettingsFromEnv(env) })
        return { status: handshake.isOk ? 'ok' : 'failed', essential: false, detail: `${head}; ${handshake.detail}${tail}`, data: { ...data, tools: handshake.tools } }
      } catch (error) {
        return { status: 'failed', essential: false, detail: `${head}; the MCP handshake could not run: ${describe(error)}${tail}`, data }
      }
    }
    case 'missing':
      return { status: 'missing', essential: false, detail: `\`${cli}\` is not on PATH (needed only for AWB_AGENT=${cli})` }
    case 'failed':
      return { status: 'failed', essential: false, detail: `\`${cli} --version\` failed: ${version.message}` }
    default: {
      const unknown: never = version
      throw new TypeError(`unexpected probe ${JSON.stringify(unknown)}`)
    }
  }
}

/**
 * Whether agent processes can run sandboxed (bubblewrap starts with the namespaces a sample uses), or that the
 * sandbox is switched off. Not essential: only CLI and external agents need it, and they are refused without it.
 */
export async function checkSandbox(env: NodeJS.ProcessEnv): Promise<DoctorCheck> {
  try {
    const { probeSandbox, sandboxUnavailableMessage } = await import('../../agents/sandbox/index.ts')
    const { sandboxSettingsFromEnv } = await import('../../settings/index.ts')
    const settings = sandboxSettingsFromEnv(env)
    if (!settings.enabled) return { status: 'skipped', essential: false, detail: 'AWB_SANDBOX=off: external programs and agent CLIs run as host processes, and runs are recorded as unsandboxed', data: { enabled: false } }
    const probe = await probeSandbox(settings.bwrap)
    if (!probe.isOk) return { status: 'failed', essential: false, detail: sandboxUnavailableMessage(settings.bwrap, probe.reason), data: { enabled: true, bwrap: settings.bwrap } }
    const version = await probeVersion(settings.bwrap, env)
    const name = version.kind === 'ok' ? version.text : settings.bwrap
    return { status: 'ok', essential: false, detail: `${name} starts: external programs and agent CLIs run sandboxed (private PID namespace, only their workspace writable)`, data: { enabled: true, bwrap: settings.bwrap } }
  } catch (error) {
    return { status: 'failed', essential: false, detail: `the agent sandbox could not be checked: ${describe(error)}` }
  }
}

/** The handshake's MCP world: the benchmark surface lists its tools without touching it, so none is needed. */
function handshakeRelay(): ToolRelay {
  return {
    page: { id: 1, url: 'awb://doctor', title: 'awb doctor handshake' },
    referencePages: [],
    listTools: async () => [],
    callTool: async name => JSON.stringify({ error: `awb doctor: ${name} is not served during the handshake`, code: 'unavailable' }),
  }
}

/**
 * The scoring backend a run would use (AWB_SCORING_BACKEND, default auto) and why: `auto` opens the GPU page only on a
 * machine with a GPU device node, refuses software renderers and times a calibration sample; `gpu` opens the page.
 */
async function checkScoring(env: NodeJS.ProcessEnv): Promise<DoctorCheck> {
  try {
    const { createScorer, SCORING_BACKENDS } = await import('../../evaluate/index.ts')
    const choice = scoringBackend(undefined, env)
    // The scorer a run would make, asked for its choice only: it scores nothing.
    const scorer = createScorer({ backend: choice })
    try {
      const decision = await scorer.chooseBackend()
      const backend = decision.backend === 'gpu' ? 'gpu-gpujs' : SCORING_BACKENDS.cells
      const what = decision.backend === 'gpu' ? `GPU (gpu.js on ${decision.renderer ?? '?'}; every answer certified in float64)` : 'CPU KD-tree + Voronoi cells (WebAssembly ICP kernel)'
      return { status: 'ok', essential: false, detail: `${what}; --backend ${choice}: ${decision.reason}`, data: { ...decision, backend } }
    } finally {
      await scorer.close()
    }
  } catch (error) {
    return { status: 'failed', essential: false, detail: `the scoring backend could not be decided: ${describe(error)}` }
  }
}

type Probe = { kind: 'ok'; text: string } | { kind: 'missing' } | { kind: 'failed'; message: string }

/** `<command> --version` with a time limit; `missing` when the command does not exist. */
function probeVersion(command: string, env: NodeJS.ProcessEnv): Promise<Probe> {
  return new Promise((resolve) => {
    execFile(command, ['--version'], { timeout: VERSION_PROBE_TIMEOUT_MS, env }, (error, stdout, stderr) => {
      if (error === null) {
        resolve({ kind: 'ok', text: (stdout.trim() || stderr.trim()).split('\n')[0] ?? '' })
        return
      }
      const code: unknown = (error as { code?: unknown }).code
      if (code === 'ENOENT') resolve({ kind: 'missing' })
      else resolve({ kind: 'failed', message: error.killed ? `no answer within ${VERSION_PROBE_TIMEOUT_MS / 1000} s` : (stderr.trim() || error.message).split('\n')[0] ?? error.message })
    })
  })
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
