"""A model server for the hosts' end-to-end tests: it speaks the streamed
wire formats of Anthropic's Messages API (Claude Code), OpenAI's Responses
API (Codex) and Google's Gemini API (Gemini CLI), answers a conversation's
first turn with one scripted tool call and every later turn with text, and
records every request body so a test can tell what reached the model.

Run: python3 fake_models.py SCRIPT.json RECORD.jsonl  (prints its port)
SCRIPT: {"tool": NAME, "input": {...}, "text": "final answer"}; the tool
names differ by host, so the test writes one script per run.
Or several calls, one a turn: {"steps": [{"tool": …, "input": …,
"wait": NAME}, …], "text": …}: the turn after N tool results answers step
N; a step with `wait` is answered once the file NAME exists next to the
script (the test makes it when it has done what must come first, such as
approving a refused call), at most WAIT_SECS later.
"""

import json
import os
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SCRIPT_PATH, RECORD_PATH = sys.argv[1], sys.argv[2]
LOCK = threading.Lock()
WAIT_SECS = 90


def script():
    with open(SCRIPT_PATH) as f:
        return json.load(f)


def step(tools, results):
    """The call to answer with, given the tool names the host offers and
    the number of tool results the conversation holds; None for text."""
    s = script()
    steps = s.get("steps") or [{"tool": s["tool"], "input": s["input"]}]
    if results >= len(steps) or steps[results]["tool"] not in tools:
        return None
    wanted = steps[results]
    if "wait" in wanted:
        gate = os.path.join(os.path.dirname(os.path.abspath(SCRIPT_PATH)), wanted["wait"])
        deadline = time.monotonic() + WAIT_SECS
        while not os.path.exists(gate) and time.monotonic() < deadline:
            time.sleep(0.05)
    return wanted


def record(path, body):
    with LOCK, open(RECORD_PATH, "a") as f:
        f.write(json.dumps({"path": path, "body": body}) + "\n")


def tool_results_anthropic(body):
    n = 0
    for m in body.get("messages", []):
        content = m.get("content")
        if isinstance(content, list):
            n += sum(1 for c in content if isinstance(c, dict) and c.get("type") == "tool_result")
    return n


def tool_results_openai(body):
    return sum(
        1
        for item in body.get("input", []) or []
        if isinstance(item, dict) and item.get("type") in ("function_call_output", "custom_tool_call_output")
    )


def tool_results_gemini(body):
    return sum(1 for c in body.get("contents", []) for p in c.get("parts", []) if "functionResponse" in p)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def body(self):
        n = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            return {"raw": raw.decode("utf-8", "replace")}

    def sse(self, events, named=True):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.end_headers()
        for name, data in events:
            chunk = ""
            if named and name:
                chunk += f"event: {name}\n"
            chunk += f"data: {json.dumps(data)}\n\n"
            self.wfile.write(chunk.encode())
            self.wfile.flush()
        self.close_connection = True

    def json_answer(self, status, value):
        raw = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_GET(self):
        record(self.path, None)
        if "models" in self.path:
            return self.json_answer(200, {"data": [], "models": []})
        self.json_answer(404, {"error": {"message": "not found"}})

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def do_POST(self):
        body = self.body()
        record(self.path, body)
        path = self.path.split("?")[0]
        if path.endswith("/messages/count_tokens"):
            return self.json_answer(200, {"input_tokens": 10})
        if path.endswith("/messages"):
            return self.anthropic(body)
        if path.endswith("/responses"):
            return self.openai_responses(body)
        if ":streamGenerateContent" in path or ":generateContent" in path:
            return self.gemini(body, stream=":streamGenerateContent" in path)
        if ":countTokens" in path:
            return self.json_answer(200, {"totalTokens": 10})
        self.json_answer(404, {"error": {"message": f"no route {path}"}})

    # Anthropic Messages API, streamed.
    def anthropic(self, body):
        s = script()
        tools = [t.get("name") for t in body.get("tools", []) or []]
        call = step(tools, tool_results_anthropic(body))
        mid = "msg_" + uuid.uuid4().hex[:20]
        model = body.get("model", "claude")
        start = {
            "type": "message_start",
            "message": {
                "id": mid, "type": "message", "role": "assistant", "model": model,
                "content": [], "stop_reason": None, "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 1},
            },
        }
        events = [("message_start", start)]
        if call:
            tid = "toolu_" + uuid.uuid4().hex[:20]
            events += [
                ("content_block_start", {"type": "content_block_start", "index": 0,
                  "content_block": {"type": "tool_use", "id": tid, "name": call["tool"], "input": {}}}),
                ("content_block_delta", {"type": "content_block_delta", "index": 0,
                  "delta": {"type": "input_json_delta", "partial_json": json.dumps(call["input"])}}),
                ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ]
            stop = "tool_use"
        else:
            text = s.get("text", "Done.") if tools else "Title"
            events += [
                ("content_block_start", {"type": "content_block_start", "index": 0,
                  "content_block": {"type": "text", "text": ""}}),
                ("content_block_delta", {"type": "content_block_delta", "index": 0,
                  "delta": {"type": "text_delta", "text": text}}),
                ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ]
            stop = "end_turn"
        events += [
            ("message_delta", {"type": "message_delta",
              "delta": {"stop_reason": stop, "stop_sequence": None},
              "usage": {"output_tokens": 5}}),
            ("message_stop", {"type": "message_stop"}),
        ]
        if body.get("stream"):
            return self.sse(events)
        content = [e[1]["content_block"] for e in events if e[0] == "content_block_start"]
        self.json_answer(200, {**start["message"], "content": content, "stop_reason": stop})

    # OpenAI Responses API, streamed.
    def openai_responses(self, body):
        s = script()
        names = []
        for t in body.get("tools", []) or []:
            names.append(t.get("name") or (t.get("function") or {}).get("name"))
        call = step(names, tool_results_openai(body))
        rid = "resp_" + uuid.uuid4().hex[:20]
        base = {"id": rid, "object": "response", "created_at": 0, "model": body.get("model", "m"),
                "status": "in_progress", "output": []}
        events = [("response.created", {"type": "response.created", "response": base})]
        if call:
            item = {"type": "function_call", "id": "fc_" + uuid.uuid4().hex[:16],
                    "call_id": "call_" + uuid.uuid4().hex[:16], "name": call["tool"],
                    "arguments": json.dumps(call["input"]), "status": "completed"}
        else:
            item = {"type": "message", "id": "msg_" + uuid.uuid4().hex[:16], "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": s.get("text", "Done."), "annotations": []}]}
        events += [
            ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": item}),
            ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed", "response": {**base, "status": "completed",
              "output": [item], "usage": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
              "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}}}}),
        ]
        self.sse(events)

    # Gemini API, streamed (`alt=sse`) or not.
    def gemini(self, body, stream):
        s = script()
        names = []
        for t in body.get("tools", []) or []:
            for f in t.get("functionDeclarations", []) or []:
                names.append(f.get("name"))
        call = step(names, tool_results_gemini(body))
        if call:
            parts = [{"functionCall": {"name": call["tool"], "args": call["input"]}}]
        else:
            parts = [{"text": s.get("text", "Done.") if names else '{"next_speaker": "user", "reasoning": "done"}'}]
        answer = {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
                  "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
                  "modelVersion": "gemini-2.5-pro"}
        if stream:
            return self.sse([(None, answer)], named=False)
        self.json_answer(200, answer)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
