// Turns an agent process's command into the one to start: inside bubblewrap (its workspace as cwd and the only
// writable host folder, a fresh /tmp and HOME, the system and the program's own files read-only, the package, runs
// and other samples out of view, its own PID namespace that dies with it), or, with AWB_SANDBOX=off, as a host
// process in the same workspace. The environment is the caller's allow-listed one; nothing is added but HOME/TMPDIR.
import { existsSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { BUNDLED_FIXTURES, BUNDLED_GENERATOR, PACKAGE_ROOT } from '../../shared/package-root.ts'
import { CERTIFICATE_VARIABLES } from './environment.ts'
import { bwrapArgs, mountPlan } from './mount-plan.ts'
import { isDirectory, isSystemPath, isWithin, realOrSelf, SYSTEM_ROOTS } from './paths.ts'
import { assertSandboxAvailable, bwrapBinary } from './probe.ts'
import { programView } from './program-view.ts'
import type { SandboxSettings } from './settings.ts'
import { systemMounts } from './system-view.ts'

/** HOME inside the sandbox when the harness's own HOME cannot be replaced (unset, `/`, a system folder's parent). */
const FALLBACK_HOME = '/tmp/home'

export interface ContainRequest {
  settings: SandboxSettings
  /** The sample's private, existing workspace: the program's working directory. */
  workspace: string
  command: string
  args: readonly string[]
  /** How many leading arguments may name the program's own files (all of them for an external agent's command). */
  fileArgs: number
  /** Where a relative program or argument path resolves (the directory Vitest runs in). */
  baseDir: string
  /** The program's environment, already allow-listed (`allowListedEnvironment`). */
  env: NodeJS.ProcessEnv
  /** More host paths the program needs read-only (a CLI's login files, the MCP bridge's files). */
  readOnly?: readonly string[] | undefined
  /** Other programs the program starts itself (the MCP bridge a CLI spawns), made visible as the program is. */
  helpers?: readonly { command: string, args: readonly string[], fileArgs: number }[] | undefined
  /** More folders that start empty and writable inside (a CLI's configuration folder outside HOME). */
  privateDirs?: readonly string[] | undefined
}

export interface ContainedLaunch {
  command: string
  args: string[]
  cwd: string
  env: NodeJS.ProcessEnv
  /** True when the process starts inside the sandbox; false only with the sandbox switched off. */
  isSandboxed: boolean
}

/**
 * What never enters a sandbox, whatever the settings: the bundled benchmark, its demonstrations and its generator
 * (from sources, and compiled under dist/ in a checkout where dist/ was built).
 */
export function alwaysHiddenPaths(): string[] {
  return [BUNDLED_FIXTURES, BUNDLED_GENERATOR, join(PACKAGE_ROOT, 'dist', 'fixtures')]
}

/**
 * The launch for `request`. Throws `SandboxError` when the sandbox is on and cannot start (fail closed): the caller
 * refuses the sample. The probe behind that check runs once per bubblewrap binary and process.
 */
export async function containedLaunch(request: ContainRequest): Promise<ContainedLaunch> {
  const { settings } = request
  const workspace = resolve(request.workspace)
  const hidden = [...settings.hiddenPaths, ...alwaysHiddenPaths()]
    .filter(path => existsSync(path))
    .map(path => ({ path: realOrSelf(path), isDirectory: isDirectory(path) }))
  const home = request.env.HOME
  const viewOptions = { baseDir: request.baseDir, path: request.env.PATH, home, broad: [request.baseDir, dirname(workspace)] }
  const view = programView(request.command, request.args, { ...viewOptions, fileArgs: request.fileArgs })
  const helpers = (request.helpers ?? []).flatMap(helper => programView(helper.command, helper.args, { ...viewOptions, fileArgs: helper.fileArgs }).readOnly)
  if (!settings.enabled) return { command: view.command, args: view.args, cwd: workspace, env: request.env, isSandboxed: false }
  await assertSandboxAvailable(settings.bwrap)
  const sandboxHome = isReplaceableHome(home) ? home : FALLBACK_HOME
  const env: NodeJS.ProcessEnv = { ...request.env, HOME: sandboxHome, TMPDIR: '/tmp' }
  const certificates = CERTIFICATE_VARIABLES.map(name => request.env[name]).filter((path): path is string => path !== undefined && isAbsolute(path))
  const readOnly = [...view.readOnly, ...helpers, ...(request.readOnly ?? []), ...certificates]
    .filter(path => existsSync(path) && !isSystemPath(path))
    .map(path => ({ path: resolve(path), real: realOrSelf(path) }))
  const ops = mountPlan({ system: systemMounts(), privateDirs: [sandboxHome, ...(request.privateDirs ?? [])], readOnly, workspace, hidden })
  return { command: bwrapBinary(settings.bwrap), args: [...bwrapArgs(ops, workspace), '--', view.command, ...view.args], cwd: workspace, env, isSandboxed: true }
}

/** HOME can become a fresh folder at its own path unless that would cover a system folder (`/`, or `/usr`'s parent). */
function isReplaceableHome(home: string | undefined): home is string {
  return home !== undefined && isAbsolute(home) && home !== '/' && !SYSTEM_ROOTS.some(root => isWithin(root, resolve(home)))
}
