// Entry point of the `awb` command: wires the declarative command table to cac; runs nothing heavy itself.
import { cac } from 'cac'
import { AwbError } from '../shared/errors.ts'
import { PACKAGE_VERSION } from '../shared/package-root.ts'
import { COMMANDS, type CommandSpec } from './commands.ts'
import { UsageError } from './usage-error.ts'


/** Runs the CLI with `argv` (without node and script) and resolves to the exit code: 0 ok, 1 failure, 2 usage. */
export async function main(argv: readonly string[]): Promise<number> {
  const cli = cac('awb')
  let exitCode: number | undefined
  for (const spec of COMMANDS) {
    const command = cli.command(spec.usage, spec.description)
    for (const option of spec.options) command.option(option.flags, option.description, option.default === undefined ? undefined : { default: option.default })
    command.action(async (...args: unknown[]) => {
      exitCode = await runCommand(spec, args)
    })
  }
  cli.help()
  cli.version(PACKAGE_VERSION)
  try {
    cli.parse(['node', 'awb', ...argv], { run: false })
    if (cli.matchedCommand === undefined) {
      if (cli.options.help || cli.options.version) return 0
      const unknown = cli.args[0]
      process.stderr.write(unknown === undefined ? 'awb: a command is required (see `awb --help`)\n' : `awb: unknown command "${unknown}" (see \`awb --help\`)\n`)
      return 2
    }
    await cli.runMatchedCommand()
  } catch (error) {
    return reportFailure(error)
  }
  return exitCode ?? 0
}

async function runCommand(spec: CommandSpec, args: unknown[]): Promise<number> {
  const module = await spec.load()
  return module.run(args)
}

function reportFailure(error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`awb: ${error.message}\n`)
    return 2
  }
  if (error instanceof AwbError) {
    process.stderr.write(`awb: [${error.code}] ${error.message}\n`)
    return 1
  }
  // cac reports unknown options and missing arguments as plain errors named CACError.
  if (error instanceof Error && error.name === 'CACError') {
    process.stderr.write(`awb: ${error.message} (see \`awb --help\`)\n`)
    return 2
  }
  throw error
}
