// What the sandbox shows of an agent program: its executable found on PATH, the folder it comes from (never the
// project, HOME or a folder holding hidden paths — from there only the file), node_modules trees and virtualenvs
// whole, and relative paths in the command made absolute (the program runs in its workspace).
import { mkdir, mkdtemp, rm, symlink, writeFile, chmod } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { programView, type ProgramViewOptions } from '../../../../src/agents/sandbox/index.ts'

let root: string
let project: string
let options: ProgramViewOptions

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'awb-program-view-'))
  project = join(root, 'project')
  await mkdir(join(project, 'agents'), { recursive: true })
  await mkdir(join(project, 'benchmark'), { recursive: true })
  await mkdir(join(project, 'node_modules', 'tool'), { recursive: true })
  await mkdir(join(project, 'node_modules', '.bin'), { recursive: true })
  await mkdir(join(project, '.venv', 'bin'), { recursive: true })
  await writeFile(join(project, 'agent.py'), 'print("hi")\n')
  await writeFile(join(project, 'agents', 'agent.mjs'), 'console.log("hi")\n')
  await writeFile(join(project, 'package.json'), '{"type": "module"}\n')
  await writeFile(join(project, 'node_modules', 'tool', 'cli.js'), '#!/usr/bin/env node\nconsole.log("tool")\n')
  await chmod(join(project, 'node_modules', 'tool', 'cli.js'), 0o755)
  await symlink('../tool/cli.js', join(project, 'node_modules', '.bin', 'tool'))
  await writeFile(join(project, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n')
  await symlink('/usr/bin/python3', join(project, '.venv', 'bin', 'python'))
  options = { baseDir: project, path: `${join(project, 'node_modules', '.bin')}:/usr/bin:/bin`, fileArgs: Infinity, home: join(root, 'home'), broad: [project, join(root, 'workspaces')] }
})

afterAll(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

describe('programView', () => {
  it('a script in the project root is shown alone, never the project; its relative path becomes absolute', () => {
    const view = programView('python3', ['agent.py', '--rounds', '3'], options)
    expect(view.command).toBe('/usr/bin/python3')
    expect(view.args).toEqual([join(project, 'agent.py'), '--rounds', '3'])
    expect(view.readOnly).toEqual([join(project, 'agent.py')])
  })

  it('a script in a folder of its own shows that folder, and Node scripts the node_modules and package.json above them', () => {
    const view = programView('node', ['agents/agent.mjs'], { ...options, path: `/usr/bin:/bin` })
    expect(view.args).toEqual([join(project, 'agents', 'agent.mjs')])
    expect(view.readOnly).toEqual(expect.arrayContaining([join(project, 'agents'), join(project, 'node_modules'), join(project, 'package.json')]))
    expect(view.readOnly).not.toContain(project)
  })

  it('a CLI from node_modules/.bin shows its whole node_modules tree (its dependencies are hoisted there)', () => {
    const view = programView('tool', ['--version'], options)
    expect(view.command).toBe(join(project, 'node_modules', '.bin', 'tool'))
    expect(view.readOnly).toContain(join(project, 'node_modules'))
    expect(view.args).toEqual(['--version'])
  })

  it('a virtualenv\'s Python shows the virtualenv, run by its own name (Python finds its environment from it)', () => {
    const view = programView('.venv/bin/python', ['agents/agent.mjs'], options)
    expect(view.command).toBe(join(project, '.venv', 'bin', 'python'))
    expect(view.readOnly).toContain(join(project, '.venv'))
  })

  it('only the leading `fileArgs` arguments are read as paths; a word that names no file stays as it is', () => {
    expect(programView('python3', ['agent.py'], { ...options, fileArgs: 0 }).args).toEqual(['agent.py'])
    expect(programView('python3', ['no-such-file.py', '-'], options).args).toEqual(['no-such-file.py', '-'])
  })
})
