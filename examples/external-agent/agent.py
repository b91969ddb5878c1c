#!/usr/bin/env python3
"""A complete AssemblyWorldBench agent in plain Python (standard library only): it finds every part in top-view
captures and gathers the parts around their common centre. The same strategy as agent.mjs and the page agent
example (examples/page-agent/agent.ts).

The harness starts it once per sample with, in its environment:
  AWB_MCP_URL      the sample's MCP endpoint (Streamable HTTP on 127.0.0.1; the URL is the secret)
  AWB_PROMPT_FILE  the task prompt (also sent on stdin)
  AWB_PAGES        JSON array of reference page image files, in page order
It talks MCP with JSON-RPC over HTTP POST, uses the benchmark tools (list_pages, list_webmcp_tools,
execute_webmcp_tool, read_manual_page) and prints its final answer on stdout, ending with the JSON outcome the
prompt asks for. Its exit code and stderr are recorded.

Why captures: get_object says position [0, 0, 0] for every part at the start (the scattered placement is baked into
the vertices, docs/tools.md "Where a part is"), so only the images tell where a part is. Every part is the same grey
on the solid background, so the agent lifts one part out of view at a time and compares the images.
"""
import base64
import json
import math
import os
import struct
import sys
import urllib.request
import zlib

LIFT = 100  # lifting a part this far up puts it behind the top-view camera: out of the image
PIXEL_TOLERANCE = 12  # a pixel differs when one of its channels changes by more than this (0-255)
MAX_ZOOM_OUTS = 4  # how many times the camera may zoom out until no part touches the image border
BACKGROUND = (0x18, 0x18, 0x25)  # the solid background of every capture, #181825

URL = os.environ["AWB_MCP_URL"]
_state = {"id": 0, "protocol": None}


def rpc(method, params=None):
    """One JSON-RPC request (or notification, for methods under notifications/) to the MCP endpoint."""
    message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    is_notification = method.startswith("notifications/")
    if not is_notification:
        _state["id"] += 1
        message["id"] = _state["id"]
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if _state["protocol"]:
        headers["MCP-Protocol-Version"] = _state["protocol"]
    request = urllib.request.Request(URL, data=json.dumps(message).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=300) as response:
        body = response.read().decode()
    if is_notification:
        return None
    reply = json.loads(body)
    if "error" in reply:
        raise RuntimeError(f"{method} failed: {reply['error']}")
    return reply["result"]


def call_tool(name, **arguments):
    """An MCP tool call; returns its content items (text first; capture_scene adds an image item)."""
    result = rpc("tools/call", {"name": name, "arguments": arguments})
    if result.get("isError"):
        raise RuntimeError(f"{name}: {result['content'][0]['text']}")
    return result["content"]


def page_tool(page_id, tool, **tool_input):
    """Runs one scene tool through execute_webmcp_tool; returns its parsed answer and the PNG when it sent one."""
    content = call_tool("execute_webmcp_tool", pageId=page_id, toolName=tool, input=json.dumps(tool_input))
    wrapper = json.loads(content[0]["text"])  # {status, output, errorText}
    if wrapper["status"] != "Completed":
        raise RuntimeError(f"{tool}: {wrapper['errorText']}")
    answer = json.loads(wrapper["output"])  # the tool's own answer, or {error, code}
    if "error" in answer:
        raise RuntimeError(f"{tool} failed ({answer['code']}): {answer['error']}")
    images = [item for item in content[1:] if item["type"] == "image"]
    return answer, (base64.b64decode(images[0]["data"]) if images else None)


def main():
    prompt = open(os.environ["AWB_PROMPT_FILE"], encoding="utf-8").read()
    pages = json.loads(os.environ.get("AWB_PAGES", "[]"))
    init = rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "example-agent", "version": "1.0"}})
    _state["protocol"] = init["protocolVersion"]
    rpc("notifications/initialized")
    tools = [tool["name"] for tool in rpc("tools/list")["tools"]]
    print(f"tools: {', '.join(tools)}; prompt of {len(prompt)} characters; {len(pages)} reference pages", file=sys.stderr)

    # "## Pages\n1: <title> (<url>) [selected]": the environment page's id comes first on its line.
    page_line = call_tool("list_pages")[0]["text"].splitlines()[1]
    page_id = int(page_line.split(":")[0])

    def call(tool, **tool_input):
        return page_tool(page_id, tool, **tool_input)[0]

    def capture():
        answer, png = page_tool(page_id, "capture_scene")
        return {"image": decode_png(png), "camera": answer["camera"], "render": answer["render"]}

    objects = call("list_objects")["objects"]
    # 1. Look straight down (pitch is clamped just short of the pole), zooming out until every part is in view.
    call("move_camera", pitch=-85)
    try:
        scene = capture()
    except RuntimeError as error:  # a world without a renderer (`awb mcp` without --render): nothing to see
        finish("unable", f"Could not see the scene: {error}", ["No part was moved."])
        return
    for _ in range(MAX_ZOOM_OUTS):
        if not touches_border(scene["image"]):
            break
        call("move_camera", zoom=1.5)
        scene = capture()
    # 2. Find each part: lift it out of view, capture, and the pixels that changed are its footprint.
    centres = {}
    for obj in objects:
        call("translate_objects", ids=[obj["id"]], delta=[0, 0, LIFT])
        without = capture()
        call("translate_objects", ids=[obj["id"]], delta=[0, 0, -LIFT])
        pixel = changed_centroid(scene["image"], without["image"])
        if pixel is None:
            print(f"{obj['id']} is not in view; it stays where it is", file=sys.stderr)
        else:
            centres[obj["id"]] = unproject_to_ground(pixel, scene)
    # 3. Gather: move every part found so that its footprint centre lands on the parts' common centre.
    if centres:
        cx = sum(x for x, _ in centres.values()) / len(centres)
        cy = sum(y for _, y in centres.values()) / len(centres)
        for part_id, (x, y) in centres.items():
            call("translate_objects", ids=[part_id], delta=[cx - x, cy - y, 0])
    finish("partial", f"Found {len(centres)} of {len(objects)} parts in top-view captures and gathered them around their common centre.",
           ["Parts are gathered, not joined: no part is turned or fitted to another."])


def finish(status, summary, uncertainties):
    """The final answer on stdout, ending with the JSON outcome the prompt asks for."""
    outcome = {"status": status, "summary": summary, "checked_connections": [], "uncertainties": uncertainties}
    print(f"Done.\n{json.dumps(outcome)}")


def decode_png(png):
    """Decodes a PNG (8-bit RGB or RGBA, not interlaced, as capture_scene writes) into (width, height, channels,
    pixels): chunks, then the zlib stream of the IDAT chunks, then each row's filter undone (PNG specification, 9)."""
    offset, idat = 8, []  # after the signature
    while offset < len(png):
        length, kind = struct.unpack(">I4s", png[offset:offset + 8])
        chunk = png[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            width, height, bit_depth, color_type, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            channels = {2: 3, 6: 4}.get(color_type)
            if bit_depth != 8 or channels is None or interlace != 0:
                raise ValueError("only 8-bit RGB(A), non-interlaced PNGs are decoded here")
        elif kind == b"IDAT":
            idat.append(chunk)
        offset += 12 + length
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, previous = [], bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], raw[start + 1:start + 1 + stride]
        if kind == 0:  # None
            row = bytearray(line)
        elif kind == 2:  # Up
            row = bytearray((a + b) & 0xFF for a, b in zip(line, previous))
        else:  # Sub, Average, Paeth: each byte depends on the one to its left
            row = bytearray(line)
            for x in range(stride):
                left = row[x - channels] if x >= channels else 0
                up = previous[x]
                up_left = previous[x - channels] if x >= channels else 0
                predictor = left if kind == 1 else (left + up) // 2 if kind == 3 else paeth(left, up, up_left)
                row[x] = (row[x] + predictor) & 0xFF
        rows.append(bytes(row))
        previous = row
    return width, height, channels, rows


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def differs(a, i, b, j):
    return any(abs(a[i + k] - b[j + k]) > PIXEL_TOLERANCE for k in range(3))


def touches_border(image):
    """Whether anything but the background lies on the image border."""
    width, height, channels, rows = image
    border = [(x, y) for y in (0, height - 1) for x in range(width)] + [(x, y) for y in range(height) for x in (0, width - 1)]
    return any(differs(rows[y], x * channels, BACKGROUND, 0) for x, y in border)


def changed_centroid(a, b):
    """The mean pixel (column, row) of the pixels that differ between two captures, or None when none does."""
    width, _, channels, rows_a = a
    rows_b = b[3]
    count = sum_x = sum_y = 0
    for y, (row_a, row_b) in enumerate(zip(rows_a, rows_b)):
        if row_a == row_b:  # most rows: nothing there moved
            continue
        for x in range(width):
            if differs(row_a, x * channels, row_b, x * channels):
                count += 1
                sum_x += x
                sum_y += y
    return None if count == 0 else (sum_x / count, sum_y / count)


def unproject_to_ground(pixel, capture):
    """Where the ray through a pixel meets the ground plane z = 0, as world (x, y). The capture camera is a three.js
    perspective camera with +Z up: forward = target - position, right = forward x Z, up = right x forward."""
    column, row = pixel
    camera, render = capture["camera"], capture["render"]
    px, py, pz = camera["position"]
    forward = normalize([t - p for t, p in zip(camera["target"], camera["position"])])
    right = normalize([forward[1], -forward[0], 0])
    up = [right[1] * forward[2] - right[2] * forward[1], right[2] * forward[0] - right[0] * forward[2], right[0] * forward[1] - right[1] * forward[0]]
    half_height = math.tan(math.radians(render["fovy"]) / 2)
    half_width = half_height * render["width"] / render["height"]
    sx = ((column + 0.5) / render["width"] * 2 - 1) * half_width
    sy = (1 - (row + 0.5) / render["height"] * 2) * half_height
    ray = [forward[k] + sx * right[k] + sy * up[k] for k in range(3)]
    distance = -pz / ray[2]
    return px + distance * ray[0], py + distance * ray[1]


def normalize(v):
    length = math.sqrt(sum(c * c for c in v))
    return [c / length for c in v]


if __name__ == "__main__":
    main()
