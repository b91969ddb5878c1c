// Reads one user variable's text by its kind (USER_VARIABLES) into a value; a malformed text is a SettingsError
// naming the variable and its example. No schema checks (ranges, JSON shapes): resolve-settings.ts applies those.
import { SettingsError } from '../errors.ts'
import { USER_VARIABLES, type UserVariable, type UserVariableName } from './table.ts'

/** The environment as read: `process.env`, or a test's own object. */
export type Environment = Readonly<Record<string, string | undefined>>

/** The value of a row's kind: an enum's words, or JSON not yet checked against its setting's schema (`unknown`). */
type ValueOfRow<R> = R extends { kind: 'enum'; values: readonly (infer V)[] } ? V
  : R extends { kind: 'text' } ? string
    : R extends { kind: 'number' } ? number
      : R extends { kind: 'flag' } ? boolean
        : unknown

/** What `readVariable` returns for `N` when it is set. */
export type RawVariableValue<N extends UserVariableName> = ValueOfRow<(typeof USER_VARIABLES)[N]>

const TRUE_FLAG = /^(1|true|yes)$/i
const FALSE_FLAG = /^(0|false|no)$/i
/** Longest part of a bad value quoted back in a message (a JSON object may be long). */
const MAX_QUOTED_CHARS = 80

/** `NAME=example` as a user would type it (JSON quoted for the shell), for messages. */
export function exampleAssignment(name: UserVariableName): string {
  const { kind, example } = USER_VARIABLES[name]
  return kind === 'json' || kind === 'text-or-json' ? `${name}='${example}'` : `${name}=${example}`
}

/** `"text"`, shortened past MAX_QUOTED_CHARS. */
export function quoted(text: string): string {
  return JSON.stringify(text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}…` : text)
}

/** The variable's value by its kind; undefined when unset or empty. Throws `SETTINGS_INVALID` on a malformed text. */
export function readVariable<N extends UserVariableName>(env: Environment, name: N): RawVariableValue<N> | undefined {
  const text = env[name]
  if (text === undefined || text === '') return undefined
  return parseText(name, USER_VARIABLES[name], text) as RawVariableValue<N>
}

function parseText(name: UserVariableName, row: UserVariable, text: string): unknown {
  const { kind } = row
  switch (kind) {
    case 'text':
      return text
    case 'enum':
      if (row.values?.includes(text) !== true) {
        const option = row.pluginOption ? ` (the ${row.option} option)` : ''
        throw new SettingsError('SETTINGS_INVALID', `${name}=${quoted(text)}: expected one of ${row.values?.join(', ') ?? '(none)'}, e.g. ${exampleAssignment(name)}${option}`)
      }
      return text
    case 'number': {
      const value = Number(text)
      if (!Number.isFinite(value)) throw new SettingsError('SETTINGS_INVALID', `${name} must be a number, got ${quoted(text)}, e.g. ${exampleAssignment(name)}`)
      return value
    }
    case 'flag':
      if (TRUE_FLAG.test(text)) return true
      if (FALSE_FLAG.test(text)) return false
      throw new SettingsError('SETTINGS_INVALID', `${name}: expected a flag, got ${quoted(text)} (use 1 or 0), e.g. ${exampleAssignment(name)}`)
    case 'json':
      return parseJson(name, text)
    case 'text-or-json':
      // A JSON object is a structured value (AWB_AGENT's `{"command": [...]}`), anything else a name.
      return text.trim().startsWith('{') ? parseJson(name, text) : text
    default: {
      const unknown: never = kind
      throw new TypeError(`unknown setting kind ${String(unknown)}`)
    }
  }
}

function parseJson(name: UserVariableName, text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (cause) {
    throw new SettingsError('SETTINGS_INVALID', `${name} must be JSON, e.g. ${exampleAssignment(name)} (got ${quoted(text)})`, { cause })
  }
}
