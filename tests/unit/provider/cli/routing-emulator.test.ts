// provider/cli/routing-emulator.ts: where the emulator is (its ready line, or a URL with the admin
// token from the environment), refused when the admin token would cross a network in clear.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ADMIN_HEADER as EMULATOR_ADMIN_HEADER } from "../../../../emulator/src/admin";
import { EVENT_ID_HEADER as EMULATOR_EVENT_ID_HEADER } from "../../../../emulator/src/kinds/alert/process";
import { ADMIN_HEADER, EVENT_ID_HEADER, targetFromEnvironment, targetFromReadyLine } from "../../../../provider/cli/routing-emulator";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "routing-emulator-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
};

test("the ready line: its url, admin token and CA (with --tls); the rest of the file is ignored", () => {
  const line = { url: "https://127.0.0.1:4443", apiUrl: "https://127.0.0.1:4443", adminToken: "adm", caFile: "/tmp/ca.pem", oauth: { clientSecret: "s" } };
  expect(targetFromReadyLine(file("tls.json", `${JSON.stringify(line)}\nlog line\n`))).toEqual({
    url: "https://127.0.0.1:4443",
    adminToken: "adm",
    caFile: "/tmp/ca.pem",
  });
  expect(targetFromReadyLine(file("plain.json", JSON.stringify({ url: "http://127.0.0.1:1/", adminToken: "adm" })))).toEqual({
    url: "http://127.0.0.1:1",
    adminToken: "adm",
  });
  expect(() => targetFromReadyLine(path.join(dir, "missing.json"))).toThrow(/missing\.json: no such file/);
  expect(() => targetFromReadyLine(file("log.txt", "starting...\n"))).toThrow(/it does not start with the emulator's JSON ready line/);
  expect(() => targetFromReadyLine(file("other.json", "{}"))).toThrow(/the ready line has no "url" and "adminToken"/);
});

test("a URL (flag, else PAGERDUTY_EMULATOR_URL) with PAGERDUTY_EMULATOR_ADMIN_TOKEN; plain http only to loopback", () => {
  const env = { PAGERDUTY_EMULATOR_URL: "http://localhost:8080", PAGERDUTY_EMULATOR_ADMIN_TOKEN: "adm" };
  expect(targetFromEnvironment(undefined, env)).toEqual({ url: "http://localhost:8080", adminToken: "adm" });
  expect(targetFromEnvironment("https://emulator.ci.example:8443/", env)).toEqual({ url: "https://emulator.ci.example:8443", adminToken: "adm" });
  expect(() => targetFromEnvironment(undefined, { PAGERDUTY_EMULATOR_ADMIN_TOKEN: "adm" })).toThrow(/no emulator: give --emulator FILE/);
  expect(() => targetFromEnvironment("http://10.0.0.5:8080", env)).toThrow(/"--url" must use https/);
  expect(() => targetFromEnvironment(undefined, { ...env, PAGERDUTY_EMULATOR_URL: "not a url" })).toThrow(/PAGERDUTY_EMULATOR_URL "not a url" is not a URL/);
});

// The CLI cannot import the emulator (another package, absent from a user's install): it names the
// headers itself, and this holds them to the emulator's contract.
test("the header names are the emulator's", () => {
  expect({ admin: ADMIN_HEADER, eventId: EVENT_ID_HEADER }).toEqual({ admin: EMULATOR_ADMIN_HEADER, eventId: EMULATOR_EVENT_ID_HEADER });
});
