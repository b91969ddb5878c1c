// The table of AWB_* variables and the reader of one variable's text: a light entry (it imports nothing but the
// settings' errors), so an `awb` command reads its variables without loading the run's settings and their schemas.
export {
  AGENT_PROGRAM_VARIABLES, INTERNAL_VARIABLES, JSON_EXAMPLES, SETTING_KINDS, USER_VARIABLE_NAMES, USER_VARIABLES,
  type SettingKind, type UserVariable, type UserVariableName,
} from './table.ts'
export { exampleAssignment, quoted, readVariable, type Environment, type RawVariableValue } from './read-variable.ts'
