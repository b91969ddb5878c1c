// Public entry of the settings (Node only): the table of AWB_* variables, the schemas of every setting, and their
// resolution once at a run's start (`resolveSettings`) or one at a time (`settingFromEnv`). The `awb` commands, which
// must start light, read a variable through `variables/index.ts` instead.
export { SETTINGS_ERROR_CODES, SettingsError, type SettingsErrorCode } from './errors.ts'
export {
  AGENT_PROGRAM_VARIABLES, exampleAssignment, INTERNAL_VARIABLES, JSON_EXAMPLES, readVariable, SETTING_KINDS, USER_VARIABLE_NAMES, USER_VARIABLES,
  type Environment, type RawVariableValue, type SettingKind, type UserVariable, type UserVariableName,
} from './variables/index.ts'
export {
  AssemblyWorldOptionsSchema, EnvironmentOnlySettingsSchema, ExternalAgentOptionSchema, ThresholdsSchema,
  type AssemblyWorldOptions, type EnvironmentOnlySettings,
} from './schema.ts'
export { assertKnownKeys, resolveSettings, sandboxSettings, type ResolvedSettings } from './resolve-settings.ts'
export { sandboxSettingsFromEnv, settingFromEnv, type SettingValue } from './setting-from-env.ts'
