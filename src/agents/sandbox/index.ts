// Public entry of the agent sandbox (Node side): the settings a run resolves, the environment allow-list, the
// bubblewrap launch of an agent process and the start-up probe. Used by the CLI and external agents and awb doctor.
export { SANDBOX_ERROR_CODES, SandboxError, type SandboxErrorCode } from './errors.ts'
export {
  DEFAULT_BWRAP, DEFAULT_SANDBOX, ENV_NAME_PATTERN, runsUnsandboxed, SANDBOX_MODES, SANDBOXED_AGENTS,
  type SandboxMode, type SandboxSettings,
} from './settings.ts'
export { allowListedEnvironment, CERTIFICATE_VARIABLES, DEFAULT_AGENT_PREFIXES, DEFAULT_AGENT_VARIABLES, type EnvironmentAllowList } from './environment.ts'
export { alwaysHiddenPaths, containedLaunch, type ContainedLaunch, type ContainRequest } from './contain.ts'
export { assertSandboxAvailable, probeSandbox, sandboxUnavailableMessage, type SandboxProbe } from './probe.ts'
export { bwrapArgs, mountPlan, type MountOp, type MountPlanInput } from './mount-plan.ts'
export { programView, type ProgramView, type ProgramViewOptions } from './program-view.ts'
