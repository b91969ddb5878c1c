// Composes the agent prompt exactly as the reference runner does (benchmark-package.md §13.2); no I/O.

/**
 * The fixed protocol block, byte for byte as the reference runner sends it. It begins and ends with a
 * newline, so a prompt is `task + "\n" + PROTOCOL` = task, an empty line, these lines, a final newline.
 */
export const PROTOCOL = `
The scheduler has loaded your episode in a dedicated browser.
Use list_pages, list_webmcp_tools and execute_webmcp_tool. All scene observations,
captures and transformations must use these page WebMCP tools.
Do not navigate, reload, close or reset the page. Do not read source code, local
geometry, ground truth, dataset annotations or other experiments. Do not spawn agents.
Preserve the existing physics and tool settings.
Reference images, if supplied, are attached in page order. You may reread only
these images with read_manual_page (one-based page).
The scheduler exports the full episode after your final answer; do not export or
write files yourself. End with a JSON object containing status (completed, partial
or unable), summary, checked_connections and uncertainties.
`

/** `task.txt` exactly as read (not trimmed: a trailing newline stays) + newline + the protocol block. */
export function composePrompt(taskText: string): string {
  return `${taskText}\n${PROTOCOL}`
}
