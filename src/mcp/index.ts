// Public entry of the MCP surfaces (Node side): the ToolRelay contract, relays over a runtime or a Playwright page, the
// benchmark and direct surfaces, and their transports (stdio, Streamable HTTP on 127.0.0.1, the stdio bridge). Page code
// imports only `./page/index.ts` (exposeToolRelay), never this file.
export { MCP_ERROR_CODES, McpError, type McpErrorCode } from './errors.ts'
export {
  createRuntimeRelay, DEFAULT_RELAY_PAGE,
  type RelayCallOptions, type RelayPage, type RelayRuntime, type RelayTool, type RuntimeRelayOptions, type ToolRelay,
} from './tool-relay.ts'
export { createDeferredRelay, type DeferredRelayOptions } from './deferred-relay.ts'
export { saveAfterEachCall, type SavingRelayOptions } from './saving-relay.ts'
export { bytesToBase64 } from '../shared/base64.ts'
export { IMAGE_PLACEHOLDER, promoteImages, type PromotedImage, type PromotedOutput } from './image-promotion.ts'
export { errorResult, MCP_TOOL_TIMEOUT_MS, ToolCallGate, type ConversationSink, type ToolCallGateOptions } from './tool-call-gate.ts'
export { BENCHMARK_TOOL_NAMES } from './benchmark-surface.ts'
export { createMcpSurface, MCP_SERVER_INFO, SURFACE_KINDS, type McpSurface, type McpSurfaceOptions, type SurfaceKind } from './mcp-surface.ts'
export { startMcpHttpServer, type McpHttpServer, type McpHttpServerOptions } from './http-server.ts'
export { runStdioBridge, serveStdio, type StdioBridgeOptions } from './stdio.ts'
export { bridgeCommand, type StdioCommand } from './bridge-command.ts'
export { createPageRelay, type PageEvaluator, type PageRelayOptions } from './page-relay.ts'
export { exposeToolRelay, PAGE_RELAY_GLOBAL, type ExposedTool, type ExposedToolSource } from './page/index.ts'
export { withSampleEndpoint, type EndpointActivity, type SampleEndpointOptions } from './sample-endpoint.ts'
