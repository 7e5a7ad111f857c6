// undici's connection pool and its `request`, alone: undici's index also loads fetch, WebSocket,
// cookies and caches, two thirds of the package's load time, which every dynamic-provider process
// would pay before its first operation. These are undici's internal files, so package.json pins
// undici to the version they were read from, and tests/unit/provider/http/client.test.ts holds them to the
// very objects undici's index exports (it fails when a new version moves them).
import type { Agent as UndiciAgent, Dispatcher } from "undici";

export const Agent: typeof UndiciAgent = require("undici/lib/dispatcher/agent");
export const dispatcherRequest: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData> =
  require("undici/lib/api/api-request");
