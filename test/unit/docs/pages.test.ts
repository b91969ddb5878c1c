// The documentation pages (README.md, docs/*.md): the examples docs/agents.md shows are the files in examples/, byte
// for byte, and each ships in the package and imports only its public entry points; every relative link and anchor
// resolves. The commands in the pages: docs-commands.test.ts (test/unit/repo).
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const AGENTS_PAGE = 'docs/agents.md'
/** `<!-- example: examples/… -->` on the line before a fenced block: that block is the whole file. */
const EXAMPLE_MARK = /^<!-- example: (\S+) -->\n```\w*\n/gm

/** README.md and every page of docs/, as paths from the repository root. */
async function pages(): Promise<string[]> {
  return ['README.md', ...(await readdir(join(ROOT, 'docs'))).filter(name => name.endsWith('.md')).sort().map(name => `docs/${name}`)]
}

/** The blocks of a page marked as examples: the file each names, and the block's text up to its closing fence. */
function exampleBlocks(text: string): { file: string; shown: string }[] {
  return [...text.matchAll(EXAMPLE_MARK)].map((match) => {
    const start = match.index + match[0].length
    const end = text.indexOf('\n```\n', start - 1)
    return { file: match[1]!, shown: end < 0 ? text.slice(start) : text.slice(start, end + 1) }
  })
}

/** GitHub's anchor of a Markdown heading: lower case, punctuation but `-` and `_` dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
}

async function anchorsOf(path: string): Promise<Set<string>> {
  const text = await readFile(join(ROOT, path), 'utf8')
  const outsideFences = text.replace(/^```[\s\S]*?^```/gm, '')
  return new Set([...outsideFences.matchAll(/^#{1,6} (.+)$/gm)].map(match => anchorOf(match[1]!)))
}

describe(`the examples in ${AGENTS_PAGE}`, () => {
  it('shows every file of examples/ whole, each block byte for byte the file it names', async () => {
    const blocks = exampleBlocks(await readFile(join(ROOT, AGENTS_PAGE), 'utf8'))
    const files = (await readdir(join(ROOT, 'examples'), { recursive: true, withFileTypes: true }))
      .filter(entry => entry.isFile()).map(entry => relative(ROOT, join(entry.parentPath, entry.name))).sort()
    expect(blocks.map(block => block.file).sort(), `${AGENTS_PAGE} shows each file of examples/ once, in a block after <!-- example: PATH -->`).toEqual(files)
    for (const { file, shown } of blocks) {
      // On a difference: copy the file into its block (the file is the source; the block is its copy).
      expect(shown, `${AGENTS_PAGE}: the block after <!-- example: ${file} --> differs from ${file}; copy the file into it`).toBe(await readFile(join(ROOT, file), 'utf8'))
    }
  })

  it('ship in the package and import only its public entry points or their language\'s standard library', async () => {
    const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { name: string; files: string[]; exports: Record<string, unknown> }
    expect(manifest.files).toContain('examples')
    const publicEntries = Object.keys(manifest.exports).map(entry => entry === '.' ? manifest.name : `${manifest.name}/${entry.slice(2)}`)
    const page = await readFile(join(ROOT, 'examples', 'page-agent', 'agent.ts'), 'utf8')
    const pageImports = [...page.matchAll(/^import .* from '([^']+)'/gm)].map(match => match[1]!)
    expect(pageImports.length).toBeGreaterThan(0)
    expect(pageImports.filter(specifier => !publicEntries.includes(specifier))).toEqual([])
    const node = await readFile(join(ROOT, 'examples', 'external-agent', 'agent.mjs'), 'utf8')
    expect([...node.matchAll(/^import .* from '([^']+)'/gm)].map(match => match[1]!).filter(specifier => !specifier.startsWith('node:'))).toEqual([])
    const python = await readFile(join(ROOT, 'examples', 'external-agent', 'agent.py'), 'utf8')
    const STDLIB = ['base64', 'json', 'math', 'os', 'struct', 'sys', 'urllib.request', 'zlib']
    expect([...python.matchAll(/^(?:import|from) (\S+)/gm)].map(match => match[1]!).filter(module => !STDLIB.includes(module))).toEqual([])
  })
})

describe('links between the pages', () => {
  it('every relative link names a file that exists, and every #anchor a heading of that page', async () => {
    const broken: string[] = []
    for (const page of await pages()) {
      const text = (await readFile(join(ROOT, page), 'utf8')).replace(/^```[\s\S]*?^```/gm, '')
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue
        const [path, anchor] = target!.split('#') as [string, string | undefined]
        const file = path === '' ? page : relative(ROOT, resolve(ROOT, dirname(page), path))
        if (!existsSync(join(ROOT, file))) broken.push(`${page}: ${target} (no file ${file})`)
        else if (anchor !== undefined && file.endsWith('.md') && !(await anchorsOf(file)).has(anchor)) broken.push(`${page}: ${target} (no heading with anchor #${anchor} in ${file})`)
      }
    }
    expect(broken).toEqual([])
  })
})
