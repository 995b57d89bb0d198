#!/usr/bin/env python3
"""A loopback stand-in for Anthropic's Messages API, for the judge test (t8008).

usage: anthropic_server.py PORT_FILE ANSWER_FILE LOG_FILE FAIL_FIRST MAX_REQUESTS

Listens on 127.0.0.1 (a free port, written to PORT_FILE), answers POST /v1/messages: the
first FAIL_FIRST requests get HTTP 500, the others a Messages reply whose content holds the
text of ANSWER_FILE split over two "text" blocks with a "thinking" block between them (a
client must join the text blocks and skip the others), and usage {input_tokens: 1000,
output_tokens: 200, cache_read_input_tokens: 100}. Each request is logged to LOG_FILE as one
line: x-api-key, anthropic-version, the path, the body (compact JSON), tab-separated. Exits
after MAX_REQUESTS requests or 60 seconds.
"""
import http.server
import json
import os
import sys
import threading

port_file, answer_file, log_file, fail_first, max_requests = sys.argv[1:6]
fail_first, max_requests = int(fail_first), int(max_requests)
count = 0


class Handler(http.server.BaseHTTPRequestHandler):
    # HTTP/1.1 answers libcurl's "Expect: 100-continue" at once (1.0 makes it wait a second)
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        global count
        count += 1
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            compact = json.dumps(json.loads(body), separators=(",", ":"))
        except ValueError:
            compact = "not json"
        with open(log_file, "a") as f:
            f.write("%s\t%s\t%s\t%s\n" % (self.headers.get("x-api-key", ""),
                                          self.headers.get("anthropic-version", ""),
                                          self.path, compact))
        if self.path != "/v1/messages":
            self.reply(404, {"type": "error", "error": {"type": "not_found_error",
                                                        "message": "no such path"}})
        elif count <= fail_first:
            self.reply(500, {"type": "error", "error": {"type": "api_error",
                                                        "message": "try again"}})
        else:
            text = open(answer_file).read()
            half = len(text) // 2
            self.reply(200, {
                "id": "msg_test", "type": "message", "role": "assistant",
                "model": json.loads(body).get("model"),
                "content": [{"type": "text", "text": text[:half]},
                            {"type": "thinking", "thinking": "not part of the answer"},
                            {"type": "text", "text": text[half:]}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": 1000, "output_tokens": 200,
                          "cache_read_input_tokens": 100}})
        if count >= max_requests:
            threading.Thread(target=self.server.shutdown).start()

    def reply(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
threading.Timer(60, server.shutdown).start()
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
os._exit(0)
