// Reads the variables the model transport uses: exported ones first, then a `.env` file in the checkout; no HTTP.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { LlmError } from './errors.ts'

export interface ProviderEnvOptions {
  /** Directory holding `.env` (default `process.cwd()`, the checkout when run through npm or Vitest). */
  cwd?: string
  /** Exported variables (default `process.env`). */
  env?: NodeJS.ProcessEnv
}

/**
 * `env` over the `.env` file of `cwd` (runner.md §1: keys come from `.env`, exported variables take precedence;
 * an exported empty value counts as unset so the file can fill it). A missing `.env` is fine; an unreadable
 * one throws `LLM_BAD_ENV`. Read on each call so an edited file takes effect without a restart.
 */
export function readProviderEnv(options: ProviderEnvOptions = {}): Record<string, string | undefined> {
  const env = options.env ?? process.env
  const path = join(options.cwd ?? process.cwd(), '.env')
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { ...env }
    throw new LlmError('LLM_BAD_ENV', `${path} exists but cannot be read: ${error instanceof Error ? error.message : String(error)}`, { file: path })
  }
  const merged: Record<string, string | undefined> = { ...parseEnv(text) }
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value.trim() !== '') merged[key] = value
  return merged
}
