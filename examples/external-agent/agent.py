#!/usr/bin/env python3
"""A complete, minimal AssemblyWorldBench agent in plain Python (standard library only).

The harness starts it once per sample with, in its environment:
  AWB_MCP_URL      the sample's MCP endpoint (Streamable HTTP on 127.0.0.1; the URL is the secret)
  AWB_PROMPT_FILE  the task prompt (also sent on stdin)
  AWB_PAGES        JSON array of reference page image files, in page order
It talks MCP with JSON-RPC over HTTP POST, uses the benchmark tools (list_pages, list_webmcp_tools,
execute_webmcp_tool, read_manual_page) and prints its final answer on stdout, ending with the JSON outcome the
prompt asks for. Its exit code and stderr are recorded. A real agent would put a model in `decide()`.
"""
import json
import os
import sys
import urllib.request

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
    """An MCP tool call; returns the text of its first content item (chrome-devtools-mcp's layout)."""
    result = rpc("tools/call", {"name": name, "arguments": arguments})
    text = result["content"][0]["text"]
    if result.get("isError"):
        raise RuntimeError(f"{name}: {text}")
    return text


def page_tool(page_id, tool, **tool_input):
    """Runs one scene tool through execute_webmcp_tool; returns its parsed JSON output."""
    answer = json.loads(call_tool("execute_webmcp_tool", pageId=page_id, toolName=tool, input=json.dumps(tool_input)))
    if answer["status"] != "Completed":
        raise RuntimeError(f"{tool}: {answer['errorText']}")
    return json.loads(answer["output"])


def decide(scene):
    """The policy: here, nudge the first part 0.05 along +X. A real agent asks its model."""
    first = scene["objects"][0]["id"]
    return [("translate_objects", {"ids": [first], "delta": [0.05, 0, 0]})]


def main():
    prompt = open(os.environ["AWB_PROMPT_FILE"], encoding="utf-8").read()
    pages = json.loads(os.environ.get("AWB_PAGES", "[]"))
    init = rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "example-agent", "version": "1.0"}})
    _state["protocol"] = init["protocolVersion"]
    rpc("notifications/initialized")
    tools = [tool["name"] for tool in rpc("tools/list")["tools"]]
    print(f"tools: {', '.join(tools)}; prompt of {len(prompt)} characters; {len(pages)} reference pages", file=sys.stderr)

    # "## Pages\n1: <title> (<url>) [selected]": the environment page's id comes first on its line.
    page_line = call_tool("list_pages").splitlines()[1]
    page_id = int(page_line.split(":")[0])
    scene = page_tool(page_id, "list_objects")
    for tool, tool_input in decide(scene):
        page_tool(page_id, tool, **tool_input)
    outcome = {
        "status": "partial",
        "summary": f"Inspected {len(scene['objects'])} objects and moved {scene['objects'][0]['id']}.",
        "checked_connections": [],
        "uncertainties": ["This example does not assemble anything."],
    }
    print(f"Done.\n{json.dumps(outcome)}")


if __name__ == "__main__":
    main()
