// emulator/README.md's REST table says what the emulator does for the rows clients trip over
// (issue 29: it said `type: "service"` was required on create, and `rule_id` on rule updates,
// while both are optional, as production clients need); its Events API example runs as shown; its
// seeded custom fields are the seed's.
import { execFile, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Client, createService, type Emu, registry, startWithClient } from "./helpers";

const README = readFileSync(join(__dirname, "..", "..", "emulator", "README.md"), "utf8");

/** The REST table row for `route` (its first cell, without backticks). */
function row(route: string): string {
  const found = README.split("\n").find((l) => l.startsWith("| `") && l.split("|")[1].trim().replace(/`/g, "") === route);
  if (!found) throw new Error(`README has no row for ${route}`);
  return found;
}

let e: Emu;
let api: Client;
beforeAll(async () => ({ e, api } = await startWithClient()));
afterAll(() => e.close());

test('POST /services: type is optional (and must be "service" when given), as the README says', async () => {
  const doc = row("POST /services");
  expect(doc).not.toMatch(/`type: "service"` required/);
  expect(doc).toMatch(/`type` optional/);
  const without = await api.post("/services", { service: { name: "no-type", escalation_policy: { id: e.seed.escalationPolicyId } } });
  expect(without.status).toBe(201);
  expect(without.json.service.type).toBe("service");
  const wrong = await api.post("/services", { service: { type: "team", name: "wrong-type", escalation_policy: { id: e.seed.escalationPolicyId } } });
  expect(wrong.status).toBe(400);
  expect(wrong.json.error.errors).toEqual(['"type" must be one of: service']);
});

test("PUT /services/{id}/rules/{rid}: rule_id is optional and must match the path, as the README says", async () => {
  const doc = row("GET/PUT/DELETE /services/{id}/rules/{rid}");
  expect(doc).not.toMatch(/`rule_id` is required/);
  expect(doc).toMatch(/`rule_id`.*optional/);
  const sid = await createService(e, api);
  const rid = (await api.post(`/services/${sid}/rules`, { rule: {} })).json.rule.id;
  expect((await api.put(`/services/${sid}/rules/${rid}`, { rule: { disabled: true } })).status).toBe(200);
  expect((await api.put(`/services/${sid}/rules/${rid}`, { rule_id: "other", rule: { disabled: true } })).status).toBe(400);
});

test("POST /services/{id}/rules/convert: the README names exactly the reply's keys", async () => {
  const sid = await createService(e, api);
  const reply = (await api.post(`/services/${sid}/rules/convert`)).json;
  const doc = row("POST /services/{id}/rules/convert");
  for (const key of Object.keys(reply)) expect(doc).toContain(key);
  for (const gone of ["converted_at", "rules_converted"]) expect(doc).not.toContain(gone);
});

test("the Events API example runs as shown: a trigger event, the incident in GET /incidents, the service critical", async () => {
  const block = /<!-- events-example:start -->\s*```sh\n([\s\S]*?)```\s*<!-- events-example:end -->/.exec(README);
  if (!block) throw new Error("README has no events example");
  const script = block[1];
  // The lines the README shows after each command, in order: what the script must print.
  const shown = script
    .split("\n")
    .filter((l) => l.startsWith("# "))
    .map((l) => l.slice(2));
  expect(shown).toHaveLength(3);
  const missing = ["curl", "jq"].filter((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);
  if (missing.length) throw new Error(`the README's example needs ${missing.join(" and ")} on PATH`);
  // Asynchronous: the emulator answers from this process.
  const out = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      "bash",
      ["-euo", "pipefail", "-c", script],
      { env: { ...process.env, URL: e.apiUrl, KEY: e.seed.apiKey, POLICY: e.seed.escalationPolicyId }, encoding: "utf8", timeout: 30_000 },
      (err, stdout, stderr) => resolve({ status: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
  expect({ status: out.status, stderr: out.stderr }).toEqual({ status: 0, stderr: "" });
  expect(out.stdout.trim().split("\n")).toEqual(shown);
});

test("the seeded custom fields the README lists are the default seed's", async () => {
  const rows = README.split("\n").filter((l) => /^\| `acme` \| `\w+` \|/.test(l));
  const documented = rows.map((l) =>
    l
      .split("|")
      .slice(2, 6)
      .map((c) => c.trim().replace(/`/g, "")),
  );
  const seeded = (await registry(e)).customFields.map((f) => {
    const def = f as unknown as { name: string; display_name: string; data_type: string; field_type: string };
    return [def.name, def.display_name, def.data_type, def.field_type];
  });
  expect(documented).toEqual(seeded);
});
