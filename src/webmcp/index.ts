// Public entry of WebMCP registration (page code): tools of a runtime on document.modelContext, in generations.
export {
  EXPIRED_REGISTRATION_RESULT,
  WebMcpToolRegistry,
  type RegisteredToolInfo,
  type RegistrationGeneration,
  type ToolHost,
  type ToolHostCallOptions,
  type ToolHostDefinition,
} from './tool-registry.ts'
export {
  listContextTools,
  ListedToolSchema,
  resolveModelContext,
  type ListedTool,
  type ModelContextLike,
  type ModelContextSource,
  type ResolvedModelContext,
  type WebMcpTool,
} from './model-context.ts'
export { WEBMCP_ERROR_CODES, WebMcpError, type WebMcpErrorCode } from './errors.ts'
