// Vite's file checks on path forms that skip normalisation, against a real resolved Vite config: without the guard
// they let `/./` and `x/../` forms through (the hole), with it every form of a protected or outside path is denied
// and ordinary paths still load.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isFileLoadingAllowed as viteIsFileLoadingAllowed, resolveConfig, type ResolvedConfig } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { guardFsPathForms } from '../../../plugin/vitest-compat/index.ts'

let root: string
let pkg: string
let evaluation: string

/**
 * Vite's loading check, given the resolved top-level config as @vitest/browser's file readers give it (Vite 8.4 types
 * the parameter as an environment's config; the top-level one carries every field the check reads).
 */
function isFileLoadingAllowed(config: ResolvedConfig, path: string): boolean {
  return viteIsFileLoadingAllowed(config as Parameters<typeof viteIsFileLoadingAllowed>[0], path)
}

async function viteConfig(): Promise<ResolvedConfig> {
  return resolveConfig({ root, configFile: false, logLevel: 'silent', server: { fs: { allow: [root], deny: ['.env', '**/evaluation.json', pkg, `${pkg}/**`] } } }, 'serve')
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'awb-vite-fs-'))
  pkg = join(root, 'pkg')
  evaluation = join(pkg, 'Chair--x', 'evaluation.json')
  await mkdir(join(pkg, 'Chair--x'), { recursive: true })
  await writeFile(evaluation, '{}')
  await writeFile(join(pkg, 'Chair--x', 'task.txt'), 'task')
  await mkdir(join(root, 'src'), { recursive: true })
  await writeFile(join(root, 'src', 'page.ts'), 'export {}')
  await symlink(pkg, join(root, 'src', 'linked'))
})

afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('guardFsPathForms', () => {
  const forms = () => ({
    dotSegment: `${pkg}/./Chair--x/task.txt`,
    dotDotIntoPackage: `${root}/src/../pkg/Chair--x/task.txt`,
    dotDotOutOfRoot: `${root}/src/../../../../../etc/passwd`,
    procEnviron: `${root}/src/../../../../../proc/self/environ`,
    doubleSlash: `${pkg}//Chair--x/task.txt`,
    throughSymlink: `${root}/src/linked/Chair--x/task.txt`,
  })

  it('without it, Vite lets path forms through that reach the package or leave the project (the hole)', async () => {
    const config = await viteConfig()
    const { dotDotIntoPackage, dotDotOutOfRoot, throughSymlink } = forms()
    expect(isFileLoadingAllowed(config, dotDotIntoPackage)).toBe(true)
    expect(isFileLoadingAllowed(config, dotDotOutOfRoot)).toBe(true)
    expect(isFileLoadingAllowed(config, throughSymlink)).toBe(true)
  })

  it('with it, every form of a protected or outside path is denied', async () => {
    const config = await viteConfig()
    guardFsPathForms(config)
    for (const [form, path] of Object.entries(forms())) expect(isFileLoadingAllowed(config, path), form).toBe(false)
    expect(isFileLoadingAllowed(config, evaluation)).toBe(false)
  })

  it('still allows the project\'s own files, in canonical form or not', async () => {
    const config = await viteConfig()
    guardFsPathForms(config)
    expect(isFileLoadingAllowed(config, join(root, 'src', 'page.ts'))).toBe(true)
    expect(isFileLoadingAllowed(config, `${root}/src/./page.ts`)).toBe(true)
    expect(isFileLoadingAllowed(config, `${root}/pkg/../src/page.ts`)).toBe(true)
  })

  it('wraps once however often the config is resolved, and refuses a config it cannot guard', async () => {
    const config = await viteConfig()
    guardFsPathForms(config)
    const once = Reflect.get(config, 'fsDenyGlob') as unknown
    guardFsPathForms(config)
    expect(Reflect.get(config, 'fsDenyGlob')).toBe(once)
    expect(() => guardFsPathForms({ server: { fs: { strict: true, allow: [root] } } })).toThrow(/canonical paths in Vite's file checks" cannot be applied/)
  })
})
