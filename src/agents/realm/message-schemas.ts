// Page side: what the harness accepts from a realm. Everything a realm sends is the agent's to choose (it can
// reach the port its realm holds), so each message is parsed before anything acts on it: unknown fields, a sample
// named in a request, a malformed result are refused, never passed on.
import * as z from 'zod'
import { CONSOLE_LEVELS } from './messages.ts'

/** Most arguments of one console call that are printed. */
const MAX_CONSOLE_ARGS = 64

const RealmRequestSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('tool'), name: z.string(), input: z.unknown() }),
  // The entry's own fields are checked by the Node side; the sample it belongs to is the harness's, never the realm's.
  z.strictObject({ kind: z.literal('record'), entry: z.looseObject({ type: z.string() }) }),
  z.strictObject({ kind: z.literal('model'), request: z.unknown() }),
])

const SpentSchema = z.strictObject({
  usage: z.record(z.string(), z.number()).nullable(),
  costUsd: z.number().nullable(),
})

export const RealmMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('load-failed'), message: z.string() }),
  z.strictObject({ type: z.literal('request'), id: z.number().int().positive(), request: RealmRequestSchema }),
  z.strictObject({ type: z.literal('console'), level: z.enum(CONSOLE_LEVELS), args: z.array(z.unknown()).max(MAX_CONSOLE_ARGS) }),
  // The result is normalised by agentResultOf, as a sloppy module's always was.
  z.strictObject({ type: z.literal('done'), result: z.unknown() }),
  z.strictObject({
    type: z.literal('failed'),
    failure: z.strictObject({ name: z.string().nullable(), message: z.string(), code: z.string().nullable(), spent: SpentSchema.nullable().catch(null) }),
  }),
])
export type ParsedRealmMessage = z.infer<typeof RealmMessageSchema>
