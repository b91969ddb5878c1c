// The CLI agents this package can run, by name; nothing else. Its own module so that the credentials and version
// tables can name the kinds without importing the runner that imports them (a file-level cycle otherwise).

/** The CLI agents, as `AWB_AGENT` names them. */
export const CLI_AGENT_KINDS = ['codex', 'claude'] as const
export type CliAgentKind = (typeof CLI_AGENT_KINDS)[number]
