import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { canonicalJson, compareCodePoints, configIdFor } from '../../../src/package/index.ts'

describe('canonical JSON (§6)', () => {
  it('sorts keys recursively, drops whitespace and ASCII-escapes like Python ensure_ascii', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 'x'], c: null } })).toBe('{"a":{"c":null,"d":[1,"x"]},"b":1}')
    expect(canonicalJson({ name: 'café\u007f😀' })).toBe('{"name":"caf\\u00e9\\u007f\\ud83d\\ude00"}')
  })

  it('sorts keys by code point, not by locale or UTF-16 unit', () => {
    expect(canonicalJson({ a: 1, B: 2 })).toBe('{"B":2,"a":1}')
    expect(canonicalJson({ '\u{1F600}': 1, '\uFF61': 2 })).toBe('{"\\uff61":2,"\\ud83d\\ude00":1}')
    expect(compareCodePoints('\uFF61', '\u{1F600}')).toBeLessThan(0)
    expect(compareCodePoints('ab', 'abc')).toBeLessThan(0)
    expect(compareCodePoints('abc', 'abc')).toBe(0)
  })
})

describe('configIdFor', () => {
  it('is prep-v1-s{seed}-i{seed}- plus the first 12 hex of SHA-256 over the canonical identity', () => {
    const identity = { revision: 'r', dataset: 'AssemblyWorld/x', preparation: { sampling_seed: 3, initialization_seed: 5 } }
    const canonical = '{"dataset":"AssemblyWorld/x","preparation":{"initialization_seed":5,"sampling_seed":3},"revision":"r"}'
    const hash = createHash('sha256').update(canonical).digest('hex').slice(0, 12)
    expect(configIdFor(identity)).toBe(`prep-v1-s3-i5-${hash}`)
  })

  it('does not depend on the key order of the identity object', () => {
    const a = { dataset: 'd', preparation: { sampling_seed: 0, initialization_seed: 0 }, engine: '3.12.0' }
    const b = { engine: '3.12.0', preparation: { initialization_seed: 0, sampling_seed: 0 }, dataset: 'd' }
    expect(configIdFor(a)).toBe(configIdFor(b))
  })
})
