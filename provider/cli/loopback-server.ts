// The redirect target of pagerduty-login: an HTTP server on 127.0.0.1 (never another interface) that
// hands the flow the first GET /callback and lets it answer the browser with a page. It knows nothing
// of OAuth: what the redirect's parameters mean is the flow's business.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { loginPage } from "./login-pages";

/** One arrival at /callback. */
export interface Redirect {
  params: URLSearchParams;
  /** Answers the browser tab (once). */
  reply(status: number, title: string, message: string): void;
}

export class LoopbackServer {
  private server?: Server;
  /** `http://127.0.0.1:PORT/callback`, once listening. */
  redirectUri = "";

  /** Listens on `port` (0: a free one); rejects with the socket error, e.g. EADDRINUSE. */
  async listen(port: number): Promise<void> {
    const server = createServer();
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
    this.redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  }

  /**
   * The first GET /callback, or undefined after `timeoutMs`. Other requests (a favicon, a probe) get
   * a 404 meanwhile; later requests go unanswered until close().
   */
  nextRedirect(timeoutMs: number): Promise<Redirect | undefined> {
    const server = this.server!;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        server.removeListener("request", onRequest);
        resolve(undefined);
      }, timeoutMs);
      const onRequest = (req: IncomingMessage, res: ServerResponse) => {
        const url = new URL(req.url ?? "/", "http://127.0.0.1");
        if (req.method !== "GET" || url.pathname !== "/callback") {
          res.writeHead(404, { "content-type": "text/plain" }).end("not found");
          return;
        }
        clearTimeout(timer);
        server.removeListener("request", onRequest);
        resolve({ params: url.searchParams, reply: (status, title, message) => sendPage(res, status, title, message) });
      };
      server.on("request", onRequest);
    });
  }

  /** Stops listening and drops open connections (a browser's keep-alive would hold close() up). */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

// no-store: the tab's URL carried a code; connection close: nothing should keep the server alive.
function sendPage(res: ServerResponse, status: number, title: string, message: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", connection: "close" }).end(loginPage(title, message));
}
