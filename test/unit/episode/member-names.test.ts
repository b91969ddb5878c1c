import { expect, test } from 'vitest'
import { classifyMember, isSafeRelativePath } from '../../../src/episode/member-names.ts'

test.each(['manifest.json', 'world/model.xml', 'world/meshes/part-0001.obj', 'observations/a.png', 'a..b/c'])('%j is a safe relative path', path => {
  expect(isSafeRelativePath(path)).toBe(true)
})

test.each(['', '/x', '../x', 'a/../b', 'a/./b', './a', 'a//b', 'a/', 'a\\b', 'C:x', 'a\u0000b'])('%j is not a safe relative path', path => {
  expect(isSafeRelativePath(path)).toBe(false)
})

test('members classify by exact name or world/ and observations/ prefix', () => {
  expect(['manifest.json', 'frames.jsonl', 'frames.bin', 'calls.jsonl', 'events.jsonl', 'world/model.xml', 'observations/x.png'].map(classifyMember))
    .toEqual(['manifest', 'frames-jsonl', 'frames-bin', 'calls', 'events', 'world', 'observation'])
  expect(['actions.jsonl', 'world/', 'observations/', 'World/model.xml', 'manifest.json.bak'].map(classifyMember)).toEqual([undefined, undefined, undefined, undefined, undefined])
})
