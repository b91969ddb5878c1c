// Steps 1–2 of the §4.3 input validation: JSON Schema (ajv, draft-07) then finiteness; no tool behaviour here.
import Ajv from 'ajv'
import type { ErrorObject, ValidateFunction } from 'ajv'
import { commandJsonSchema } from './tool-catalog.ts'
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
function assertSchemaValid(name: CommandName, input: unknown): void {
  const validate = validatorOf(name)
  if (!validate(input)) throw new ToolError(MESSAGES.invalidArguments(name, describeAjvErrors(validate.errors ?? [])))
}

/** Throws `All numeric inputs must be finite.` when any number anywhere in `input` is NaN or ±Infinity (§4.3 step 2). */
function assertFiniteNumbers(input: unknown): void {
  if (!isAllFinite(input)) throw new ToolError(MESSAGES.finite)
}

/**
 * Steps 1–2, and the input typed as the command's. ajv alone decides validity (its texts are the ones agents see): the
 * command's zod schema, from which its JSON Schema is made, holds nothing JSON Schema cannot say (no refinement,
 * transform or default; test/unit/world/tool-input-schemas.test.ts), so a valid input already is a CommandInput<N>.
 */
export function checkedCommandInput<N extends CommandName>(name: N, input: unknown): CommandInput<N> {
  assertSchemaValid(name, input)
  assertFiniteNumbers(input)
  return input as CommandInput<N>
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
