"""A real MCP server (stdio) for the workbench tests: each tool appends the
call to the log file named by MCP_LOG, so a test can tell what ran."""

import json
import os

from mcp.server.fastmcp import FastMCP

server = FastMCP("test-tools")


def _log(tool: str, args: dict) -> None:
    with open(os.environ["MCP_LOG"], "a") as f:
        f.write(json.dumps({"tool": tool, "args": args}) + "\n")


@server.tool()
def run_shell(command: str) -> str:
    """Runs a shell command (here: only records it)."""
    _log("run_shell", {"command": command})
    return f"ran: {command}"


@server.tool()
def send_message(text: str) -> str:
    """Sends a message (here: only records it)."""
    _log("send_message", {"text": text})
    return "sent"


if __name__ == "__main__":
    server.run("stdio")
