// Node only: copies a sample's reference pages into an agent's workspace as `reference-0001.<ext>`, … (page order);
// shared by the CLI and external agents. No parsing here.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pageFileExtension } from '../../package/index.ts'
import type { ReferencePage } from '../agent.ts'
import type { WorkspacePage } from './invocation.ts'

/** Writes the pages (mode 0600) as `reference-0001.<ext>`, … (benchmark-package.md §13.3 item 2); returns them with their paths. */
export async function copyPages(workspace: string, pages: readonly ReferencePage[]): Promise<WorkspacePage[]> {
  await mkdir(workspace, { recursive: true })
  const copied: WorkspacePage[] = []
  for (const [index, page] of pages.entries()) {
    const path = join(workspace, `reference-${String(index + 1).padStart(4, '0')}.${pageFileExtension(page.mimeType)}`)
    await writeFile(path, page.bytes, { mode: 0o600 })
    copied.push({ ...page, path })
  }
  return copied
}
