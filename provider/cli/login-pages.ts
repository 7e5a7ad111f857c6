// The page pagerduty-login shows in the browser tab the identity service sends back to it: a title
// and one sentence, in a self-contained document (no script, no outside asset). The terminal has the
// details; the page only says how it ended and whether to look there.

/** Escapes by character code, so no text the identity service sent can become markup. */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The whole page; `#title` and `#message` are what the end-to-end test reads. */
export function loginPage(title: string, message: string): string {
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    `<style>body{font:16px system-ui,sans-serif;background:#f4f5f7;color:#1f2933;display:grid;place-items:center;min-height:90vh}` +
    `main{background:#fff;border-radius:10px;padding:2rem 2.5rem;box-shadow:0 2px 12px #0002;max-width:32rem}</style></head>` +
    `<body><main><h1 id="title">${escapeHtml(title)}</h1><p id="message">${escapeHtml(message)}</p></main></body></html>`
  );
}
