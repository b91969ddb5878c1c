// What an agent program needs to see of the host to start: its executable resolved on PATH, the interpreter its
// script names, and the folders both come from (a node_modules tree, a virtualenv, a tool manager's folder, an
// install prefix) — never `/`, HOME or a folder holding the project or the workspaces: from there only the file.
// Relative paths in the command become absolute, because the program runs in its workspace, not where Vitest runs.
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs'
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path'
import { findExecutable, isDirectory, isSystemPath, isWithin, nearestAbove, outermostNodeModules, realOrSelf } from './paths.ts'

/** Version managers whose whole folder under HOME a program of theirs needs (shims, versions, their scripts). */
const TOOL_HOMES = ['.pyenv', '.nvm', '.asdf', '.rbenv', '.nodenv', '.volta', '.bun', '.deno', '.rustup', '.fnm', '.sdkman'] as const
/** Scripts that resolve their imports through node_modules folders above them. */
const JS_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'] as const
const JS_INTERPRETERS = /^(node|nodejs|tsx|bun|deno)$/

export interface ProgramViewOptions {
  /** Where a relative program or argument path resolves (the directory Vitest runs in). */
  baseDir: string
  /** The PATH the program is looked up on. */
  path: string | undefined
  /** How many leading arguments may name the program's own files (made absolute and shown read-only when they exist). */
  fileArgs: number
  /** The HOME of the harness (never shown whole). */
  home: string | undefined
  /**
   * Paths no folder shown whole may contain: the project (its .env, its .git) and the workspaces' parent (other
   * samples). Hidden paths need not be here: the mount plan covers them wherever they lie.
   */
  broad: readonly string[]
}

export interface ProgramView {
  /** The program to execute: absolute when it was found. */
  command: string
  args: string[]
  /** Host paths the program needs, shown read-only at the same place. */
  readOnly: string[]
}

/** Resolves the program and its file arguments and lists what must be visible for them to run. */
export function programView(command: string, args: readonly string[], options: ProgramViewOptions): ProgramView {
  const readOnly = new Set<string>()
  const program = findExecutable(command, options.path, options.baseDir)
  if (program !== undefined) for (const path of programPaths(program, options, 0)) readOnly.add(path)
  const resolvedArgs = args.map((arg, index) => {
    if (index >= options.fileArgs || arg === '' || arg.startsWith('-') || arg.includes('\n')) return arg
    const full = isAbsolute(arg) ? arg : resolve(options.baseDir, arg)
    if (!existsSync(full)) return arg
    if (isDirectory(full)) {
      if (!isBroad(full, options)) readOnly.add(full)
    } else {
      for (const path of programPaths(full, options, 0)) readOnly.add(path)
    }
    return full
  })
  return { command: program ?? command, args: resolvedArgs, readOnly: [...readOnly] }
}

/** The paths a program or script file needs: its folder (or itself), its real file's, its interpreter's, its dependencies. */
function programPaths(file: string, options: ProgramViewOptions, level: number): string[] {
  const paths: string[] = []
  const real = realOrSelf(file)
  for (const candidate of new Set([file, real])) {
    if (isSystemPath(candidate)) continue
    paths.push(rootOf(candidate, options))
    const venv = virtualenvOf(candidate)
    if (venv !== undefined) paths.push(venv.root, ...(venv.home === undefined ? [] : programPaths(join(venv.home, 'python3'), options, level + 1)))
  }
  const interpreter = interpreterOf(real, options)
  // One level of interpreters is enough: `#!/usr/bin/env node` → node; node itself is a binary.
  if (interpreter !== undefined && level === 0) paths.push(...programPaths(interpreter, options, level + 1))
  const isJs = (JS_EXTENSIONS as readonly string[]).includes(extname(real)) || (interpreter !== undefined && JS_INTERPRETERS.test(basename(interpreter)))
  if (isJs && !isSystemPath(real)) {
    // Node finds a script's imports in the node_modules folders above it, and its module type in package.json.
    for (const name of ['node_modules', 'package.json']) {
      const found = nearestAbove(dirname(real), name)
      if (found !== undefined && !isBroad(found, options)) paths.push(found)
    }
  }
  return paths.filter(path => existsSync(path))
}

/** The folder to show for a program file: its package tree, tool folder or install prefix, else its folder, else itself. */
function rootOf(file: string, options: ProgramViewOptions): string {
  const modules = outermostNodeModules(file)
  if (modules !== undefined && !isBroad(modules, options)) return modules
  const home = options.home
  if (home !== undefined && home !== '/') {
    const tool = TOOL_HOMES.map(name => join(home, name)).find(dir => isWithin(file, dir))
    if (tool !== undefined) return tool
  }
  const dir = dirname(file)
  if (basename(dir) === 'bin' || basename(dir) === 'sbin') {
    // An install prefix (`/opt/python/bin/python3` needs `/opt/python/lib`), unless it is HOME or a folder of HOME's own.
    const prefix = dirname(dir)
    if (!isBroad(prefix, options) && (home === undefined || dirname(prefix) !== home)) return prefix
  }
  return isBroad(dir, options) ? file : dir
}

/** True when `dir` may not be shown whole: `/`, HOME, or an ancestor of (or equal to) a protected path. */
function isBroad(dir: string, options: ProgramViewOptions): boolean {
  if (dir === '/' || dir === options.home) return true
  return options.broad.some(path => isWithin(path, dir) || isWithin(realOrSelf(path), realOrSelf(dir)))
}

/** A Python virtualenv's folder (its pyvenv.cfg lies two levels above the executable) and its base Python's folder. */
function virtualenvOf(file: string): { root: string, home: string | undefined } | undefined {
  const root = dirname(dirname(file))
  const config = join(root, 'pyvenv.cfg')
  if (!existsSync(config)) return undefined
  const home = /^home\s*=\s*(.+)$/m.exec(readFileSync(config, 'utf8'))?.[1]?.trim()
  return { root, home: home !== undefined && isAbsolute(home) ? home : undefined }
}

/** The interpreter a script's `#!` line names (through `/usr/bin/env NAME`, looked up on PATH), if any. */
function interpreterOf(file: string, options: ProgramViewOptions): string | undefined {
  let head: string
  try {
    const fd = openSync(file, 'r')
    try {
      const buffer = Buffer.alloc(256)
      head = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('latin1')
    } finally {
      closeSync(fd)
    }
  } catch {
    return undefined
  }
  if (!head.startsWith('#!')) return undefined
  const [interpreter, ...rest] = (head.slice(2).split('\n')[0] ?? '').trim().split(/\s+/)
  if (interpreter === undefined || interpreter === '') return undefined
  if (basename(interpreter) !== 'env') return interpreter
  const name = rest.find(word => !word.startsWith('-') && !word.includes('='))
  return name === undefined ? undefined : findExecutable(name, options.path, options.baseDir)
}
