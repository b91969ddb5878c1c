// Steps 1–2 of the §4.3 input validation: JSON Schema (ajv, draft-07) then finiteness; no tool behaviour here.
import Ajv from 'ajv'
import type { ErrorObject, ValidateFunction } from 'ajv'
import { COMMAND_INPUT_SCHEMAS, commandJsonSchema } from './tool-catalog.ts'
import type { CommandInput, CommandName } from './tool-catalog.ts'
import { MESSAGES, ToolError } from './tool-error.ts'

let _ajv: Ajv | undefined
const _validators = new Map<CommandName, ValidateFunction>()

function validatorOf(name: CommandName): ValidateFunction {
  let validate = _validators.get(name)
  if (validate === undefined) {
    // allErrors off: the first broken rule is the message, like the reference validator.
    // strictRequired off: set_object_pose's anyOf names properties declared at the top level.
    _ajv ??= new Ajv({ strict: true, strictRequired: false, allowUnionTypes: true })
    validate = _ajv.compile(commandJsonSchema(name))
    _validators.set(name, validate)
  }
  return validate
}

/** Throws `Invalid <name> arguments: …` unless `input` matches the command's JSON Schema (§4.3 step 1). */
export function assertSchemaValid(name: CommandName, input: unknown): void {
  const validate = validatorOf(name)
  if (!validate(input)) throw new ToolError(MESSAGES.invalidArguments(name, describeAjvErrors(validate.errors ?? [])))
}

/** Throws `All numeric inputs must be finite.` when any number anywhere in `input` is NaN or ±Infinity (§4.3 step 2). */
export function assertFiniteNumbers(input: unknown): void {
  if (!isAllFinite(input)) throw new ToolError(MESSAGES.finite)
}

/** The typed input of a command that passed steps 1–2 (zod then agrees with ajv by construction of the schema). */
export function parseCommandInput<N extends CommandName>(name: N, input: unknown): CommandInput<N> {
  const parsed = COMMAND_INPUT_SCHEMAS[name].safeParse(input)
  if (!parsed.success) throw new ToolError(MESSAGES.invalidArguments(name, parsed.error.issues[0]?.message ?? 'invalid input'))
  // The record erases the per-name type; the schema indexed by `name` is exactly CommandInput<N>'s.
  return parsed.data as CommandInput<N>
}

function isAllFinite(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) return value.every(isAllFinite)
  if (value !== null && typeof value === 'object') return Object.values(value).every(isAllFinite)
  return true
}

function describeAjvErrors(errors: readonly ErrorObject[]): string {
  const first = errors[0]
  if (first === undefined) return 'does not match the input schema'
  const params: Record<string, unknown> = first.params
  const where = first.instancePath === '' ? 'input' : `input${first.instancePath}`
  const extra = typeof params.additionalProperty === 'string' ? ` (unknown key "${params.additionalProperty}")` : ''
  return `${where} ${first.message ?? 'is invalid'}${extra}`
}
