// Recognises account-quota exhaustion in a serialised execution record (runner.md §6 rule 3, §13 item 4); pure.

/** The reference's pattern, case-insensitive, matched against the serialised execution object. */
export const QUOTA_PATTERN = /usage.limit|usage_limit|quota.exceed|insufficient.quota|you.ve hit.*limit|weekly.limit|5.hour.limit|five.hour.limit|credits?.*(?:exhaust|deplet)/i

/** True when `text` (e.g. `JSON.stringify(execution)`) says the account's quota is exhausted. */
export function isQuotaExhausted(text: string): boolean {
  return QUOTA_PATTERN.test(text)
}
