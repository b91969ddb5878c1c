// Checks the file references inside world XML files (environment.md §2.12 rule 1); compiles nothing.
import { WorldError } from './errors.ts'

/** The XML attributes that name files or directories MuJoCo would open. */
const PATH_ATTRIBUTE = /\b(file|meshdir|texturedir|assetdir)\s*=\s*("([^"]*)"|'([^']*)')/g

/**
 * Throws unless every path-like attribute of `xml` is a safe relative path: no leading `/`, no `\`, no `:`,
 * no empty, `.` or `..` segment, and no `&` (XML entities could hide any of those).
 * `source` names the XML member in messages.
 */
export function assertSafeAssetPaths(xml: string, source: string): void {
  for (const match of xml.matchAll(PATH_ATTRIBUTE)) {
    const attribute = match[1] ?? 'file'
    const raw = match[3] ?? match[4] ?? ''
    const value = attribute === 'file' ? raw : raw.replace(/\/+$/, '')
    const problem = describeUnsafePath(value)
    if (problem !== undefined) {
      throw new WorldError('WORLD_ASSET_PATH', `${attribute}="${raw}" ${problem}; asset paths must be plain relative paths inside world/`, { file: source })
    }
  }
}

function describeUnsafePath(value: string): string | undefined {
  if (value.includes('&')) return 'uses an encoded resource path (Encoded resource paths are unsupported)'
  if (value === '') return 'is empty'
  if (value.startsWith('/')) return 'is absolute'
  if (value.includes('\\')) return 'contains a backslash'
  if (value.includes(':')) return 'contains a colon'
  const bad = value.split('/').find(segment => segment === '' || segment === '.' || segment === '..')
  if (bad !== undefined) return `has an ${bad === '' ? 'empty' : `"${bad}"`} segment`
  return undefined
}
