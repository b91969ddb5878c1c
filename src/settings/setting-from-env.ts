// Node only: one setting read from the environment outside a Vitest run (`awb doctor`, tests), parsed and checked
// exactly as at a run's start; no defaults beyond the ones each helper names.
import type * as z from 'zod'
import type { SandboxSettings } from '../agents/sandbox/index.ts'
import { sandboxSettings } from './resolve-settings.ts'
import { AssemblyWorldOptionsSchema, EnvironmentOnlySettingsSchema } from './schema.ts'
import { settingsIssue } from './settings-issue.ts'
import { readVariable, USER_VARIABLES, type Environment, type UserVariableName } from './variables/index.ts'

/** The schema of every setting, by key. */
const SETTING_SCHEMAS = { ...AssemblyWorldOptionsSchema.shape, ...EnvironmentOnlySettingsSchema.shape }
type SettingSchemas = typeof SETTING_SCHEMAS

/** The value of variable `N` once checked: the output of its setting's schema. */
export type SettingValue<N extends UserVariableName> = Exclude<z.output<SettingSchemas[(typeof USER_VARIABLES)[N]['option']]>, undefined>

/** Variable `name`, parsed and checked as at a run's start; undefined when unset or empty. Throws `SettingsError`. */
export function settingFromEnv<N extends UserVariableName>(name: N, env: Environment = process.env): SettingValue<N> | undefined {
  const raw = readVariable(env, name)
  if (raw === undefined) return undefined
  const option = USER_VARIABLES[name].option
  const parsed = SETTING_SCHEMAS[option].safeParse(raw)
  if (parsed.success) return parsed.data as SettingValue<N>
  const issue = parsed.error.issues[0]
  throw settingsIssue(issue === undefined ? undefined : { ...issue, path: [option, ...issue.path] }, new Map([[option, { name, text: env[name] ?? '' }]]))
}

/**
 * AWB_SANDBOX and AWB_BWRAP outside a Vitest run (`awb doctor`): no paths to hide beyond the bundled fixtures, no
 * extra variables; a relative bwrap path starts from `root`.
 */
export function sandboxSettingsFromEnv(env: Environment = process.env, root = process.cwd()): SandboxSettings {
  return sandboxSettings({ mode: settingFromEnv('AWB_SANDBOX', env), bwrap: settingFromEnv('AWB_BWRAP', env), hiddenPaths: [], passEnv: [] }, root)
}
