"""Serve the built page on this machine (make web; docs/web.md).

Python's own http.server, with the two headers that make the page
cross-origin isolated (a finer clock for first-press order) and no caching
by the browser (the service worker keeps the offline copy).

  python web/serve.py [--dir build/web] [--host 127.0.0.1] [--port 8000]
"""
import argparse
import functools
import http.server
import socket
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-cache",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
                             ".webmanifest": "application/manifest+json", ".log": "text/plain"})

    def end_headers(self):
        for k, v in HEADERS.items():
            self.send_header(k, v)
        super().end_headers()

    def log_message(self, format, *args):
        pass                            # quiet: the page is the interface


def server(directory, host="127.0.0.1", port=8000):
    """A threading HTTP server for the folder (port 0: any free port)."""
    handler = functools.partial(Handler, directory=str(directory))
    return http.server.ThreadingHTTPServer((host, port), handler)


def lan_address():
    """This machine's address on its network (for a tablet), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))     # no packet is sent: only picks the route
            return s.getsockname()[0]
    except OSError:
        return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default=str(REPO / "build" / "web"))
    ap.add_argument("--host", default="127.0.0.1", help="0.0.0.0: reachable from a tablet on this network")
    ap.add_argument("--port", type=int, default=8000)
    args = ap.parse_args(argv)
    if not (Path(args.dir) / "index.html").is_file():
        print("web: %s has no page: make web-build first" % args.dir, file=sys.stderr)
        return 1
    try:
        httpd = server(args.dir, args.host, args.port)
    except OSError as e:
        print("web: cannot serve on %s:%d (%s): try make web WEB_PORT=8001" % (args.host, args.port, e),
              file=sys.stderr)
        return 1
    port = httpd.server_address[1]
    print("web: the Cheese Box is at http://localhost:%d/ (Ctrl-C stops)" % port, flush=True)
    if args.host not in ("127.0.0.1", "localhost"):
        ip = lan_address()
        if ip:
            print("web: from a tablet on this network: http://%s:%d/ (plain http: it plays, but no offline"
                  " copy, install or wake lock; docs/web.md)" % (ip, port), flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        print("\nweb: stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
