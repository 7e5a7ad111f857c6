// fastify's app.inject (light-my-request) loads under jest and on Node 20: the root package.json's
// `overrides` keeps light-my-request on cookie 1.x (CommonJS, engines node >=18); cookie 2.x is
// ESM-only and wants node >=22 (npm warned EBADENGINE on every install).
import { readFileSync } from "node:fs";
import { buildEmulator } from "../../emulator/src";

test("app.inject serves a request without a listening server", async () => {
  const { app } = buildEmulator();
  const res = await app.inject({ method: "GET", url: "/_emulator/health" });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ ok: true });
  await app.close();
});

test("the cookie light-my-request loads supports Node 20", () => {
  const lmr = require.resolve("light-my-request", { paths: [require.resolve("fastify")] });
  const pkg = JSON.parse(readFileSync(require.resolve("cookie/package.json", { paths: [lmr] }), "utf8")) as { version: string; engines: { node: string } };
  expect(pkg.version).toMatch(/^1\./);
  expect(pkg.engines.node).toBe(">=18");
});
