// Public entry of the page-side MCP relay pieces (importable from page code: no `node:` imports).
export { exposeToolRelay, PAGE_RELAY_GLOBAL, type ExposedTool, type ExposedToolSource } from './expose-tool-relay.ts'
