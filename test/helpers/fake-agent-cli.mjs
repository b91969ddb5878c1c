#!/usr/bin/env node
// A fake agent CLI for tests: behaves like `codex exec --json` or `claude -p --output-format stream-json` closely
// enough for the runner — reads the prompt from stdin, connects to the `assembly` MCP server its arguments name,
// calls tools, streams JSON events and ends with a JSON outcome. Never calls a model.
//
// FAKE_AGENT_MODE: ok (default) | crash | hang | quota | bad-line | tool-error | reconnect (Codex transport notices
//                  before a normal run) | no-mcp (never connects the server, answers anyway) | mcp-pending (Claude:
//                  init shows the server `pending`, as with background connection, then answers without tools)
// FAKE_AGENT_LOG:  a file to which {argv, stdin, env} is written (JSON) before anything else.
// FAKE_AGENT_CALLS: JSON array of [toolName, input] run through execute_webmcp_tool (default: get_scene, then
//                   translate_objects part-0001 by [0.1, 0, 0]).
import { readFileSync, writeFileSync } from 'node:fs'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

const argv = process.argv.slice(2)
const kind = argv[0] === 'exec' ? 'codex' : argv.includes('-p') ? 'claude' : undefined
const mode = process.env.FAKE_AGENT_MODE ?? 'ok'
const emit = event => process.stdout.write(`${JSON.stringify(event)}\n`)

if (kind === undefined) {
  process.stderr.write('fake-agent-cli: expected `exec …` (codex) or `-p …` (claude)\n')
  process.exit(2)
}
const stdin = readFileSync(0, 'utf8')
if (process.env.FAKE_AGENT_LOG) writeFileSync(process.env.FAKE_AGENT_LOG, JSON.stringify({ pid: process.pid, argv, stdin, cwd: process.cwd(), env: pickEnv() }))

if (mode === 'crash') {
  process.stderr.write('fake-agent-cli: simulated crash (segfault in the model client)\n')
  process.exit(3)
}
if (mode === 'hang') {
  emit(kind === 'codex' ? { type: 'thread.started', thread_id: 'thread-hang' } : { type: 'system', subtype: 'init', session_id: 'session-hang', model: 'fake-model' })
  setInterval(() => undefined, 1_000)
} else if (mode === 'quota') {
  emit(kind === 'codex' ? { type: 'thread.started', thread_id: 'thread-quota' } : { type: 'system', subtype: 'init', session_id: 'session-quota', model: 'fake-model' })
  emit({ type: 'error', message: "You've hit your usage limit. Upgrade to Pro or try again in 3 hours." })
  emit({ type: 'turn.failed', error: { message: "You've hit your usage limit." } })
  process.exit(1)
} else if (mode === 'no-mcp' || mode === 'mcp-pending') {
  emit(kind === 'codex' ? { type: 'thread.started', thread_id: 'thread-1' } : { type: 'system', subtype: 'init', session_id: 'session-1', model: 'fake-model', tools: [], mcp_servers: [{ name: 'assembly', status: mode === 'mcp-pending' ? 'pending' : 'connected' }] })
  emitFinal(`I have no tools.\n${JSON.stringify({ status: 'unable', summary: 'No tools were available.', checked_connections: [], uncertainties: [] })}`)
} else {
  await runScenario()
}

async function runScenario() {
  const server = kind === 'codex' ? codexServer() : claudeServer()
  const prompt = kind === 'claude' && argv.includes('--input-format') ? JSON.parse(stdin.split('\n')[0]).message.content[0].text : stdin
  if (!prompt.includes('End with a JSON object')) throw new Error('the prompt did not arrive on stdin')
  const client = new Client({ name: `fake-${kind}`, version: '0' })
  await client.connect(new StdioClientTransport({ command: server.command, args: server.args, stderr: 'inherit' }))
  const session = kind === 'codex' ? 'thread-1' : 'session-1'
  emit(kind === 'codex' ? { type: 'thread.started', thread_id: session } : { type: 'system', subtype: 'init', session_id: session, model: 'fake-model', tools: ['mcp__assembly__list_pages'], mcp_servers: [{ name: 'assembly', status: 'connected' }], cwd: process.cwd(), apiKeySource: 'none' })
  if (kind === 'codex') emit({ type: 'turn.started' })
  if (kind === 'codex' && mode === 'reconnect') {
    for (let n = 1; n <= 5; n++) emit({ type: 'error', message: `Reconnecting... ${n}/5 (unexpected status 404 Not Found: Unknown error, url: ws://127.0.0.1:1/v1/responses)` })
    emit({ type: 'item.completed', item: { id: 'item-w', type: 'error', message: 'Falling back from WebSockets to HTTPS transport.' } })
  }
  emitThinking('I should look at the scene first.')
  await client.callTool({ name: 'list_pages', arguments: {} })
  await client.callTool({ name: 'list_webmcp_tools', arguments: { pageId: 1 } })
  const calls = process.env.FAKE_AGENT_CALLS ? JSON.parse(process.env.FAKE_AGENT_CALLS) : [['get_scene', {}], ['translate_objects', { ids: ['part-0001'], delta: [0.1, 0, 0] }]]
  let n = 0
  for (const [toolName, input] of calls) {
    const result = await client.callTool({ name: 'execute_webmcp_tool', arguments: { pageId: 1, toolName, input: JSON.stringify(input) } })
    emitToolUse(`tool-${++n}`, toolName, input, result)
  }
  const images = kind === 'codex' ? argv.filter((_, i) => argv[i - 1] === '--image').length : (prompt === stdin ? 0 : JSON.parse(stdin.split('\n')[0]).message.content.length - 1)
  for (let page = 1; page <= images; page++) await client.callTool({ name: 'read_manual_page', arguments: { page } })
  if (mode === 'tool-error') await client.callTool({ name: 'read_manual_page', arguments: { page: images + 1 } })
  await client.close()
  if (mode === 'bad-line') process.stdout.write('this is not JSON\n')
  emitFinal(`Done.\n${JSON.stringify({ status: 'completed', summary: `Moved part-0001 after ${calls.length} calls; read ${images} pages.`, checked_connections: ['part-0001/part-0002'], uncertainties: [] })}`)
}

function emitFinal(answer) {
  const session = kind === 'codex' ? 'thread-1' : 'session-1'
  if (kind === 'codex') {
    emit({ type: 'item.completed', item: { id: 'item-9', type: 'agent_message', text: answer } })
    emit({ type: 'turn.completed', usage: { input_tokens: 1200, cached_input_tokens: 200, output_tokens: 340 } })
  } else {
    emit({ type: 'assistant', message: { id: 'msg-9', role: 'assistant', model: 'fake-model', content: [{ type: 'text', text: answer }] }, session_id: session })
    emit({ type: 'result', subtype: 'success', is_error: false, result: answer, total_cost_usd: 0.0123, usage: { input_tokens: 1200, output_tokens: 340, service_tier: 'standard' }, session_id: session, num_turns: 4 })
  }
}

function emitThinking(text) {
  if (kind === 'codex') emit({ type: 'item.completed', item: { id: 'item-0', type: 'reasoning', text } })
  else emit({ type: 'assistant', message: { id: 'msg-0', role: 'assistant', content: [{ type: 'thinking', thinking: text, signature: 'sig-secret' }] }, session_id: 'session-1' })
}

function emitToolUse(id, toolName, input, result) {
  if (kind === 'codex') {
    emit({ type: 'item.completed', item: { id, type: 'mcp_tool_call', server: 'assembly', tool: 'execute_webmcp_tool', arguments: { toolName, input }, result, status: 'completed' } })
  } else {
    emit({ type: 'assistant', message: { id: `msg-${id}`, role: 'assistant', content: [{ type: 'text', text: `Calling ${toolName}.` }, { type: 'tool_use', id, name: 'mcp__assembly__execute_webmcp_tool', input: { pageId: 1, toolName, input: JSON.stringify(input) } }] }, session_id: 'session-1' })
    emit({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result.content.filter(item => item.type === 'text') }] }, session_id: 'session-1' })
  }
}

/** Codex: `-c mcp_servers.assembly.command=<TOML string>` and `-c mcp_servers.assembly.args=[…]`. */
function codexServer() {
  const config = new Map()
  argv.forEach((arg, i) => {
    if (argv[i - 1] !== '-c') return
    const at = arg.indexOf('=')
    config.set(arg.slice(0, at), arg.slice(at + 1))
  })
  const command = config.get('mcp_servers.assembly.command')
  const args = config.get('mcp_servers.assembly.args')
  if (command === undefined || args === undefined) throw new Error('codex: no mcp_servers.assembly in the -c overrides')
  return { command: JSON.parse(command), args: JSON.parse(args) }
}

/** Claude: `--mcp-config <file>` with `mcpServers.assembly`. */
function claudeServer() {
  const file = argv[argv.indexOf('--mcp-config') + 1]
  const server = JSON.parse(readFileSync(file, 'utf8')).mcpServers.assembly
  if (server === undefined) throw new Error('claude: no assembly server in --mcp-config')
  return { command: server.command, args: server.args }
}

function pickEnv() {
  const keep = {}
  for (const key of Object.keys(process.env)) if (/^(CODEX_|CLAUDE|FAKE_AGENT_|AWB_TEST_|MCP_)/.test(key)) keep[key] = process.env[key]
  return keep
}
