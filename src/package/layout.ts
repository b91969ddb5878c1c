// Relative paths of every package file, built from the templates of §2; checks nothing, reads nothing.
import type { ReferenceMode } from './schemas.ts'

export const BENCHMARK_FILE = 'benchmark.json'
export const INDEX_FILE = 'index/samples.parquet'

/** The three layout values of a block that name its folders. */
export interface BlockFolders {
  /** `data` (= block name). */
  data: string
  /** Last `/`-segment of `repo_id`. */
  repoTail: string
  configId: string
}

export function repoTail(repoId: string): string {
  return repoId.slice(repoId.lastIndexOf('/') + 1)
}

/** `<block>/task.txt` */
export function taskPath(block: BlockFolders): string {
  return `${block.data}/task.txt`
}

/** `<block>/<repo-tail>/<config_id>` */
export function configDir(block: BlockFolders): string {
  return `${block.data}/${block.repoTail}/${block.configId}`
}

/** `<block>/<repo-tail>/<config_id>/config.json` */
export function configPath(block: BlockFolders): string {
  return `${configDir(block)}/config.json`
}

/** `<slug>.episode.zip`, relative to the config folder (the value of `config.json` `samples[id].episode`). */
export function episodeFileName(slug: string): string {
  return `${slug}.episode.zip`
}

export function episodePath(block: BlockFolders, slug: string): string {
  return `${configDir(block)}/${episodeFileName(slug)}`
}

export function evaluationPath(block: BlockFolders, slug: string): string {
  return `${configDir(block)}/cache/${slug}/evaluation.json`
}

/** The reference folder, or undefined for `none` blocks (they have none). */
export function referenceDir(block: BlockFolders, slug: string, mode: ReferenceMode): string | undefined {
  return mode === 'none' ? undefined : `${configDir(block)}/cache/${slug}/reference/${mode}`
}

/** `page-NNNN.<ext>` for a 1-based page number. */
export function pageFileName(page: number, extension: string): string {
  return `page-${String(page).padStart(4, '0')}.${extension}`
}
