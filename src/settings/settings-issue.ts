// Turns the first schema issue of the settings into a SettingsError that names where the value came from (the plugin
// option, or the AWB_* variable and its text) and shows an accepted example; message building only.
import type * as z from 'zod'
import { SettingsError } from './errors.ts'
import { exampleAssignment, quoted, readVariable, USER_VARIABLE_NAMES, USER_VARIABLES, type UserVariableName } from './variables/index.ts'

/** Per setting key: the variable its value came from, with the text as written (absent: the plugin options). */
export type SettingSources = Map<string, { name: UserVariableName; text: string }>

export function settingsIssue(issue: z.core.$ZodIssue | undefined, sources: SettingSources): SettingsError {
  if (issue === undefined) return new SettingsError('SETTINGS_INVALID', 'assemblyWorld options: invalid')
  const key = String(issue.path[0] ?? '')
  const path = issue.path.map(String).join('.') || '(root)'
  const source = sources.get(key)
  if (source === undefined) {
    const name = USER_VARIABLE_NAMES.find(candidate => USER_VARIABLES[candidate].option === key)
    const hint = name === undefined ? `the options are ${pluginOptionNames().join(', ')}` : `e.g. ${key}: ${JSON.stringify(readVariable({ [name]: USER_VARIABLES[name].example }, name))}`
    return new SettingsError('SETTINGS_INVALID', `assemblyWorld options: ${path}: ${issue.message} (from the plugin options); ${hint}`)
  }
  const { name, text } = source
  // A word outside a closed list (AWB_SANDBOX, AWB_SCORING_BACKEND): the list says it all.
  if (issue.code === 'invalid_value' && issue.path.length === 1) {
    return new SettingsError('SETTINGS_INVALID', `${name}=${quoted(text)}: expected one of ${issue.values.map(String).join(', ')}, e.g. ${exampleAssignment(name)}`)
  }
  return new SettingsError('SETTINGS_INVALID', `assemblyWorld options: ${path}: ${issue.message} (from ${name}=${quoted(text)}), e.g. ${exampleAssignment(name)}`)
}

function pluginOptionNames(): string[] {
  return USER_VARIABLE_NAMES.filter(name => USER_VARIABLES[name].pluginOption).map(name => USER_VARIABLES[name].option)
}
