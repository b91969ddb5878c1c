// Page-safe entry of the official metrics row: its schema, types and builders (no I/O; the page imports this).
export {
  AlignmentRowSchema, BaseFieldsSchema, ErrorFieldsSchema, MetricsRowSchema, PartRowSchema, ScoredFieldsSchema,
  describeError, describeIssues, errorFields, parseMetricsRow, scoredFields,
  type BaseFields, type ErrorFields, type MetricsRow, type ScoredFields, type ScoredRow,
} from './metrics-row.ts'
